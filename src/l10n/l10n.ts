// Localized strings for the pure modules. They must not import `vscode`, so the extension hands
// them vscode.l10n at activation (useTranslator); until then, and in plain tests, messages are
// English with their {0} placeholders filled. Same message format as vscode.l10n.t.

export type Translator = (message: string, args: readonly (string | number)[]) => string;

// Without arguments there is nothing to fill (a placeholder stays as written either way).
const english: Translator = (message, args) =>
  args.length === 0 ? message : message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));

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
