// Finds what a Daml file declares without the Daml SDK: its module, its templates and interfaces,
// and the choices inside them, with their lines. A text scan: comments, pragmas and strings are
// blanked first, so text that only looks like a declaration there is never taken for one. No
// `vscode` import.

export type DamlDeclKind = 'template' | 'interface' | 'choice';

export interface DamlDecl {
  kind: DamlDeclKind;
  name: string;
  /** For a choice: the template or interface it is declared in (none when it stands outside one). */
  parent?: string;
  /** Zero-based line and column of the name. */
  line: number;
  column: number;
}

export interface DamlFileSymbols {
  /** From `module A.B where`; undefined when the file has no module header. */
  module?: string;
  decls: DamlDecl[];
}

const isIdent = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 39;
// Haskell operator symbols: a dash run that is part of one (`-->`, `|--`) does not start a comment.
const SYMBOLS = new Set([...'!#$%&*+./<=>?@\\^|-~:'].map((c) => c.charCodeAt(0)));
const NL = 10;
const SPACE = 32;

/**
 * The text with comments (`--`, nested `{- -}`, pragmas), string literals and character literals
 * replaced by spaces; lines and columns stay where they were.
 */
export function blankCommentsAndStrings(text: string): string {
  const out: string[] = [];
  let copied = 0;
  const blank = (from: number, to: number) => {
    out.push(text.slice(copied, from));
    const piece = text.slice(from, to);
    out.push(piece.replace(/[^\n\r]/g, ' '));
    copied = to;
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 45 /* - */ && text.charCodeAt(i + 1) === 45 && !SYMBOLS.has(text.charCodeAt(i - 1))) {
      let j = i + 2;
      while (text.charCodeAt(j) === 45) j++;
      if (j >= n || !SYMBOLS.has(text.charCodeAt(j))) {
        let end = text.indexOf('\n', j);
        if (end < 0) end = n;
        blank(i, end);
        i = end;
        continue;
      }
      i = j;
      continue;
    }
    if (c === 123 /* { */ && text.charCodeAt(i + 1) === 45) {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        const d = text.charCodeAt(j);
        if (d === 123 && text.charCodeAt(j + 1) === 45) {
          depth++;
          j += 2;
        } else if (d === 45 && text.charCodeAt(j + 1) === 125) {
          depth--;
          j += 2;
        } else j++;
      }
      blank(i, j);
      i = j;
      continue;
    }
    if (c === 34 /* " */) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 92 /* \ */) {
          const e = text.charCodeAt(j + 1);
          // A string gap: backslash, white space (newlines too), backslash.
          if (e === SPACE || e === NL || e === 9 || e === 13) {
            let k = j + 1;
            while (k < n && text.charCodeAt(k) !== 92) k++;
            j = k + 1;
          } else j += 2;
          continue;
        }
        if (d === 34) {
          j++;
          break;
        }
        if (d === NL) break; // unterminated: stop at the line's end
        j++;
      }
      blank(i, Math.min(j, n));
      i = j;
      continue;
    }
    if (c === 39 /* ' */ && !isIdent(text.charCodeAt(i - 1))) {
      // 'x', '\n', '\'', '\1234': a character literal (a quote after an identifier is part of it).
      const m = /^'(?:\\[^']{1,8}|\\'|[^'\\\n])'/.exec(text.slice(i, i + 12));
      if (m) {
        blank(i, i + m[0].length);
        i += m[0].length;
        continue;
      }
    }
    i++;
  }
  out.push(text.slice(copied));
  return out.join('');
}

const MODULE = /^module[ \t]+([A-Z][A-Za-z0-9_']*(?:\.[A-Z][A-Za-z0-9_']*)*)/m;
const DECL = /^([ \t]*)(template|interface|(?:(?:non|pre|post)consuming[ \t]+)?choice)[ \t]+([A-Z][A-Za-z0-9_']*)(?![A-Za-z0-9_'.])/gm;

/** Where each line starts, for offsets to lines. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The offset where a block opened at `indent` ends: the next non-blank line indented no deeper. */
function blockEnd(code: string, from: number, indent: number): number {
  const re = new RegExp(`\\n[ \\t]{0,${indent}}[^ \\t\\r\\n]`, 'g');
  re.lastIndex = from;
  const m = re.exec(code);
  return m ? m.index + 1 : code.length;
}

/** The module, templates, interfaces and choices a Daml file declares. */
export function scanDamlSource(text: string): DamlFileSymbols {
  // Files without any of the words skip the blanking (most of a large workspace's modules).
  if (!/\b(?:template|interface|choice|module)\b/.test(text)) return { decls: [] };
  const code = blankCommentsAndStrings(text);
  const starts = lineStarts(code);
  const decls: DamlDecl[] = [];
  let container: { name: string; end: number } | undefined;
  DECL.lastIndex = 0;
  for (let m = DECL.exec(code); m; m = DECL.exec(code)) {
    const indent = m[1].length;
    const keyword = m[2];
    const name = m[3];
    const nameAt = m.index + m[0].length - name.length;
    const line = lineOf(starts, m.index);
    const column = nameAt - starts[line];
    if (container && m.index >= container.end) container = undefined;
    if (keyword === 'template' || keyword === 'interface') {
      decls.push({ kind: keyword, name, line, column });
      container = { name, end: blockEnd(code, m.index + m[0].length, indent) };
    } else {
      decls.push(container ? { kind: 'choice', name, parent: container.name, line, column } : { kind: 'choice', name, line, column });
    }
  }
  const module = MODULE.exec(code)?.[1];
  return module ? { module, decls } : { decls };
}

/** `A.B` for a file at `<source>/A/B.daml`; undefined when the path is not a module path. */
export function moduleFromPath(relativePath: string): string | undefined {
  const parts = relativePath
    .replace(/\\/g, '/')
    .replace(/\.daml$/, '')
    .split('/')
    .filter(Boolean);
  return parts.length > 0 && parts.every((p) => /^[A-Z][A-Za-z0-9_']*$/.test(p)) ? parts.join('.') : undefined;
}
