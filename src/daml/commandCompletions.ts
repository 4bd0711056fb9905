// What completes in a *.commands.json from the workspace's Daml index: template ids
// (`#<package name>:<Module>:<Template>`, from each project's daml.yaml) where a templateId goes,
// the choices of the command's template (with their argument fields and types) where a choice
// goes, and the fields of a create or choice argument. Pure.
import type { DamlIndex, IndexedFile } from './damlIndex';
import { fieldsAt, type DamlField } from './damlFields';

export interface CompletionCandidate {
  label: string;
  detail: string;
  /** Where it is defined: file and zero-based line. */
  file: string;
  line: number;
}

/** Every template of the workspace as a package-name template id. */
export function templateCandidates(index: DamlIndex): CompletionCandidate[] {
  const out: CompletionCandidate[] = [];
  for (const f of index.allFiles()) {
    for (const d of f.decls) {
      if (d.kind !== 'template') continue;
      const pkg = f.project?.name;
      out.push({
        label: `${pkg ? `#${pkg}` : '<package>'}:${f.module}:${d.name}`,
        detail: pkg ? `${pkg} ${f.project?.version ?? ''}`.trim() : 'no daml.yaml',
        file: f.file,
        line: d.line,
      });
    }
  }
  return out.sort((a, b) => a.label.localeCompare(b.label));
}

function filesOf(index: DamlIndex, templateId: string): { file: IndexedFile; module: string; entity: string }[] {
  const parts = templateId.split(':');
  if (parts.length < 2) return [];
  const entity = parts[parts.length - 1];
  const module = parts[parts.length - 2];
  const pkg = parts.length === 3 && parts[0].startsWith('#') ? parts[0].slice(1) : undefined;
  return [...index.allFiles()]
    .filter((f) => f.module === module && (!pkg || !f.project?.name || f.project.name === pkg))
    .map((file) => ({ file, module, entity }));
}

/** The choices of a template (from its source), each with its argument fields; `Archive` too. */
export function choiceCandidates(
  index: DamlIndex,
  templateId: string,
  textOf: (file: string) => string | undefined,
): (CompletionCandidate & { fields: DamlField[] })[] {
  const out: (CompletionCandidate & { fields: DamlField[] })[] = [];
  for (const { file, entity } of filesOf(index, templateId)) {
    const text = textOf(file.file);
    for (const d of file.decls) {
      if (d.kind !== 'choice' || d.parent !== entity) continue;
      const fields = text ? fieldsAt(text, d.line) : [];
      out.push({ label: d.name, detail: fields.map((f) => `${f.name} : ${f.type}`).join(', ') || '()', file: file.file, line: d.line, fields });
    }
  }
  if (out.length > 0 && !out.some((c) => c.label === 'Archive')) out.push({ label: 'Archive', detail: '()', file: out[0].file, line: out[0].line, fields: [] });
  return out;
}

/** The fields of a template's create argument, or of a choice's argument, with their Daml types. */
export function argumentFields(index: DamlIndex, templateId: string, choice: string | undefined, textOf: (file: string) => string | undefined): DamlField[] {
  if (choice) return choiceCandidates(index, templateId, textOf).find((c) => c.label === choice)?.fields ?? [];
  for (const { file, entity } of filesOf(index, templateId)) {
    const d = file.decls.find((x) => x.kind === 'template' && x.name === entity);
    const text = d && textOf(file.file);
    if (d && text) return fieldsAt(text, d.line);
  }
  return [];
}
