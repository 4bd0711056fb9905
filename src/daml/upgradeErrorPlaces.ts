// Where in the Daml source a node's upgrade-check refusal points: Canton's NOT_VALID_UPGRADE_PACKAGE
// ("Upgrade checks indicate that <new> cannot be an upgrade of <old>. Reason: <why>") names the
// template, choice, data type or module in its reason, in the words of Daml-LF's upgrade checks
// (daml-lf/validation/…/Upgrading.scala: "The upgraded template Iou is missing some of its
// original fields.", "input type of choice Iou_Split on template Iou", "Choice X appears in
// package that is being upgraded, but …"). Pure.

export interface UpgradeName {
  kind: 'template' | 'choice' | 'dataType' | 'module';
  name: string;
  /** For a choice: its template, when the reason names it. */
  template?: string;
}

export interface SourcePlace {
  file: string;
  /** Zero-based. */
  line: number;
  column: number;
  length: number;
  name: UpgradeName;
}

const NAME = String.raw`([A-Za-z_][A-Za-z0-9_']*(?:\.[A-Za-z_][A-Za-z0-9_']*)*)`;
const PATTERNS: { re: RegExp; make: (m: RegExpExecArray) => UpgradeName }[] = [
  { re: new RegExp(String.raw`(?:input type of )?choice ${NAME} on template ${NAME}`, 'g'), make: (m) => ({ kind: 'choice', name: m[1], template: m[2] }) },
  { re: new RegExp(String.raw`\b[Cc]hoice ${NAME}`, 'g'), make: (m) => ({ kind: 'choice', name: m[1] }) },
  { re: new RegExp(String.raw`\b[Tt]emplate ${NAME}`, 'g'), make: (m) => ({ kind: 'template', name: m[1] }) },
  { re: new RegExp(String.raw`\b(?:[Dd]ata type|record|variant) ${NAME}`, 'g'), make: (m) => ({ kind: 'dataType', name: m[1] }) },
  { re: new RegExp(String.raw`\bModule ${NAME}`, 'g'), make: (m) => ({ kind: 'module', name: m[1] }) },
];

/** The names an upgrade refusal's reason gives, most specific first, each once. */
export function upgradeErrorNames(cause: string): UpgradeName[] {
  const reason = /Reason: ([\s\S]*)$/.exec(cause)?.[1] ?? cause;
  const out: UpgradeName[] = [];
  const taken: [number, number][] = [];
  for (const { re, make } of PATTERNS) {
    for (const m of reason.matchAll(re)) {
      const start = m.index ?? 0;
      // A shorter pattern inside a match already taken ("template Iou" of "choice X on template Iou").
      if (taken.some(([a, b]) => start >= a && start < b)) continue;
      taken.push([start, start + m[0].length]);
      const n = make(m);
      if (!out.some((o) => o.kind === n.kind && o.name === n.name && o.template === n.template)) out.push(n);
    }
  }
  return out;
}

/** A Daml file of the project: its module and text. */
export interface ProjectFile {
  file: string;
  module: string;
  text: string;
}

/** The declarations the names point at, in the project's files. */
export function upgradeErrorPlaces(names: readonly UpgradeName[], files: readonly ProjectFile[]): SourcePlace[] {
  const out: SourcePlace[] = [];
  for (const name of names) {
    const local = name.name.split('.').at(-1)!;
    for (const f of files) {
      if (name.kind === 'module') {
        if (f.module === name.name) out.push({ file: f.file, line: 0, column: 0, length: 0, name });
        continue;
      }
      const lines = f.text.split(/\r?\n/);
      const decl =
        name.kind === 'template'
          ? new RegExp(String.raw`^\s*template\s+(${local})\b`)
          : name.kind === 'choice'
            ? new RegExp(String.raw`^\s*(?:nonconsuming\s+|preconsuming\s+|postconsuming\s+)?choice\s+(${local})\b`)
            : new RegExp(String.raw`^\s*data\s+(${local})\b`);
      let inTemplate = name.template === undefined;
      lines.forEach((text, line) => {
        if (name.template !== undefined && /^\s*template\s/.test(text))
          inTemplate = new RegExp(String.raw`^\s*template\s+${name.template.split('.').at(-1)!}\b`).test(text);
        const m = decl.exec(text);
        if (m && inTemplate) out.push({ file: f.file, line, column: text.indexOf(m[1], m.index), length: m[1].length, name });
      });
    }
  }
  return out;
}
