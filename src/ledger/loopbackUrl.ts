// Whether a URL names this machine (localhost, 127.0.0.0/8, [::1]). Pure (no `vscode`).

export function isLoopbackUrl(url: string | URL): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}
