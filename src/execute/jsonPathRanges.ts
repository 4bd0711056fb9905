// Where a JSON path ("$.a.b[0].c") is in a JSON text, so a problem can be shown on its value.
// A small scanner over the text, tolerant of anything it does not understand.

export interface TextSpan {
  start: number;
  end: number;
}

/** The spans of every value in `text`, by JSON path. */
export function jsonValueSpans(text: string): Map<string, TextSpan> {
  const spans = new Map<string, TextSpan>();
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return text.slice(start + 1, i - 1);
    }
  };
  const value = (path: string, depth: number): void => {
    ws();
    const start = i;
    if (depth > 200 || i >= text.length) return;
    const c = text[i];
    if (c === '{') {
      i++;
      for (;;) {
        ws();
        if (text[i] === '}') {
          i++;
          break;
        }
        if (text[i] !== '"') return;
        const key = str();
        ws();
        if (text[i] !== ':') return;
        i++;
        value(`${path}.${key}`, depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          break;
        }
        return;
      }
    } else if (c === '[') {
      i++;
      for (let n = 0; ; n++) {
        ws();
        if (text[i] === ']') {
          i++;
          break;
        }
        value(`${path}[${n}]`, depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          break;
        }
        return;
      }
    } else if (c === '"') {
      str();
    } else {
      while (i < text.length && !/[\s,}\]]/.test(text[i])) i++;
    }
    spans.set(path, { start, end: i });
  };
  value('$', 0);
  return spans;
}

/** The span of `path`, or of its nearest parent that exists (a missing field points at its object). */
export function spanOf(spans: Map<string, TextSpan>, path: string): TextSpan | undefined {
  for (let p = path; p; p = p.replace(/(\.[^.[\]]+|\[\d+\])$/, '')) {
    const s = spans.get(p);
    if (s) return s;
    if (p === '$') break;
  }
  return undefined;
}
