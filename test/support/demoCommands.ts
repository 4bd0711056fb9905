// Commands on the fake node's own templates, with the arguments its packages define: the node
// transcodes a prepare's commands as Canton's JSON layer does, so an unknown template or a wrong
// field is refused there.
import type { FakeLedgerNode } from '../../fake-ledger/src/testing';

/** The demo model's `Notes:Note` (fields author, reader, title, body, tags) under its package id. */
export function noteTemplateId(node: FakeLedgerNode): string {
  const t = node.generated.template(2);
  if (`${t.module}:${t.entity}` !== 'Notes:Note') throw new Error(`the fake's third template is ${t.module}:${t.entity}, not Notes:Note`);
  return t.templateId;
}

/** A CreateCommand of a Note that `author` writes to itself. */
export function noteCreate(node: FakeLedgerNode, author: string, title: string, templateId = noteTemplateId(node)) {
  return { CreateCommand: { templateId, createArguments: { author, reader: author, title, body: '', tags: [] as string[] } } };
}
