// Template and interface ids for people; shared by the extension and the page scripts.

/** `Iou:Iou` from `<package id>:Iou:Iou`. */
export function templateName(templateId: string): string {
  const parts = templateId.split(':');
  return parts.length >= 3 ? parts.slice(1).join(':') : templateId;
}
