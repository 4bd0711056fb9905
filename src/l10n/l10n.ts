// Localized strings for the pure modules. They must not import `vscode`, so the extension hands
// them vscode.l10n at activation (useTranslator); until then, and in plain tests, messages are
// English with their {0} placeholders filled. Same message format as vscode.l10n.t.

export type Translator = (message: string, args: readonly (string | number)[]) => string;

/**
 * `message` with `{0}`, `{1}`… replaced by `args` once (an argument holding "{1}" stays so); a
 * placeholder beyond them stays as written. A scan, not a replace with a callback: every panel's
 * text passes here, and the callback was most of its cost.
 */
export function fillPlaceholders(message: string, args: readonly (string | number)[]): string {
  if (args.length === 0) return message;
  let out = '';
  let copied = 0;
  for (let open = message.indexOf('{'); open !== -1; open = message.indexOf('{', open + 1)) {
    let at = open + 1;
    let index = 0;
    while (at < message.length && message.charCodeAt(at) >= 48 && message.charCodeAt(at) <= 57) index = index * 10 + message.charCodeAt(at++) - 48;
    if (at === open + 1 || message.charCodeAt(at) !== 125 || index >= args.length) continue;
    out += message.slice(copied, open) + String(args[index]);
    copied = at + 1;
  }
  return copied === 0 ? message : out + message.slice(copied);
}

const english: Translator = fillPlaceholders;

// Kept on globalThis: the lazy bundles (http.js, txReview.js) carry their own copy of this module,
// and all copies must use the translator the extension set.
const KEY = Symbol.for('canton-lens.l10n.translator');
const shared = globalThis as { [KEY]?: Translator };

/** `message` in the display language, with `{0}`, `{1}`… replaced by `args`. */
export function t(message: string, ...args: (string | number)[]): string {
  return (shared[KEY] ?? english)(message, args);
}

/** Routes every later t() through `translate` (vscode.l10n.t in the extension); none resets to English. */
export function useTranslator(translate: Translator | undefined): void {
  shared[KEY] = translate;
}
