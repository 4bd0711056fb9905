// Translation extraction: every message of the extension, from `vscode.l10n.t(...)` in the
// `vscode` modules and from `l10n.t(...)` / `tHtml(...)` in the pure modules (which @vscode/l10n-dev's
// extractor does not see: it knows only the `vscode` and `@vscode/l10n` imports). `npm run
// l10n:extract` writes l10n/bundle.l10n.json (the English bundle a translator starts from) and a
// pseudo-locale, l10n/bundle.l10n.qps-ploc.json and package.nls.qps-ploc.json, for the run that
// shows untranslated strings. test/unit/l10nBundle.test.ts fails when the bundle and src/ differ.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const L10N_DIR = path.join(ROOT, 'l10n');
export const BUNDLE_FILE = path.join(L10N_DIR, 'bundle.l10n.json');
export const PSEUDO_LOCALE = 'qps-ploc';

// Functions that pass their first argument to l10n.t: tHtml (src/panels/html/safeHtml.ts) and the
// page-strings helper `keep` (src/panels/html/panelPage.ts).
const WRAPPERS = new Set(['tHtml', 'keep']);

/** `l10n.t`, `vscode.l10n.t` and the wrappers: the calls whose first argument is a message. */
function isMessageCall(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return WRAPPERS.has(callee.text);
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 't' && /(^|\.)l10n$/.test(callee.expression.getText());
}

export interface ExtractedMessages {
  messages: Set<string>;
  /** Calls whose message is a variable (file:line): the plumbing that forwards a message. */
  forwarding: string[];
  /** Calls whose message is neither a literal nor a variable (file:line): a bundle cannot list them. */
  dynamic: string[];
}

/** Every message of the TypeScript files under `src/` (the page scripts get theirs from the host). */
export function extractMessages(srcDir = path.join(ROOT, 'src')): ExtractedMessages {
  const messages = new Set<string>();
  const forwarding: string[] = [];
  const dynamic: string[] = [];
  // A literal, or a choice between literals (`c ? 'a' : 'b'`): every message it can be.
  const literals = (e: ts.Expression): string[] | undefined => {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
    if (ts.isParenthesizedExpression(e)) return literals(e.expression);
    if (ts.isConditionalExpression(e)) {
      const a = literals(e.whenTrue);
      const b = literals(e.whenFalse);
      return a && b ? [...a, ...b] : undefined;
    }
    return undefined;
  };
  for (const rel of fs
    .readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const file = path.join(srcDir, rel);
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isMessageCall(node)) {
        const first = node.arguments[0];
        const where = `${rel}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        const found = first && literals(first);
        if (found) found.forEach((m) => messages.add(m));
        else if (first && ts.isIdentifier(first)) forwarding.push(where);
        else dynamic.push(where);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { messages, forwarding, dynamic };
}

/** The English bundle: each message is its own key (vscode.l10n.t's format without comments). */
export function englishBundle(messages: Iterable<string>): Record<string, string> {
  return Object.fromEntries([...messages].sort().map((m) => [m, m]));
}

// Letters with accents, so an untranslated string stands out; placeholders ({0}) and command or
// setting ids (cantonLens.x) are kept, and the text grows by a third as translations often do.
const ACCENTED: Record<string, string> = Object.fromEntries([...'aeiouyAEIOUYcnsCNS'].map((c, i) => [c, [...'àéîõüýÀÉÎÕÜÝçñšÇÑŠ'][i]]));

export function pseudoLocalize(message: string): string {
  const parts = message.split(/(\{\d+\}|cantonLens\.[\w.]+|https?:\/\/\S+|`[^`]*`)/);
  const body = parts.map((p, i) => (i % 2 === 1 ? p : p.replace(/[A-Za-z]/g, (c) => ACCENTED[c] ?? c))).join('');
  return `［${body}${'·'.repeat(Math.min(Math.ceil(message.length / 3), 20))}］`;
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

if (require.main === module) {
  const { messages, forwarding, dynamic } = extractMessages();
  const bundle = englishBundle(messages);
  writeJson(BUNDLE_FILE, bundle);
  writeJson(path.join(L10N_DIR, `bundle.l10n.${PSEUDO_LOCALE}.json`), Object.fromEntries(Object.keys(bundle).map((m) => [m, pseudoLocalize(m)])));
  const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
  writeJson(path.join(ROOT, `package.nls.${PSEUDO_LOCALE}.json`), Object.fromEntries(Object.entries(nls).map(([k, v]) => [k, pseudoLocalize(v)])));
  console.log(
    `${Object.keys(bundle).length} messages in ${path.relative(ROOT, BUNDLE_FILE)}; ${Object.keys(nls).length} in package.nls.json; forwarding: ${forwarding.join(', ')}; not literal: ${dynamic.join(', ') || 'none'}.`,
  );
}

// Where a string literal reaches a person: messages and progress titles, tree items, quick picks
// and input boxes. A literal there that is not a message of l10n.t is not translated.
const SHOWN_PROPERTIES = new Set(['label', 'description', 'tooltip', 'placeHolder', 'prompt', 'detail', 'title', 'message', 'validationMessage']);
const SHOW_CALLS = /^(vscode\.)?window\.show(Information|Warning|Error)Message$/;

/** User-visible string literals of the `vscode` modules that skip l10n.t (file:line text). */
export function untranslatedLiterals(srcDir = path.join(ROOT, 'src')): string[] {
  const found: string[] = [];
  const files = fs
    .readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !/^webview\//.test(f))
    .sort();
  for (const rel of files) {
    const file = path.join(srcDir, rel);
    const text = fs.readFileSync(file, 'utf8');
    if (!/from 'vscode'/.test(text)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    const report = (e: ts.Node | undefined) => {
      if (!e) return;
      // Of a template, only its literal parts: what is inside ${…} is checked where it is built.
      const literal =
        ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)
          ? e.text
          : ts.isTemplateExpression(e)
            ? [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join(' ')
            : undefined;
      if (literal === undefined) return;
      const words = literal.replace(/\$\([\w-]+\)|cantonLens\.[\w.]+|https?:\/\/\S+/g, ' ');
      if (/[A-Za-z]{3,}/.test(words)) found.push(`${rel}:${source.getLineAndCharacterOfPosition(e.getStart()).line + 1} ${e.getText().slice(0, 60)}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && SHOWN_PROPERTIES.has(node.name.text)) report(node.initializer);
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        ts.isPropertyAccessExpression(node.left) &&
        SHOWN_PROPERTIES.has(node.left.name.text)
      )
        report(node.right);
      if (ts.isCallExpression(node) && SHOW_CALLS.test(node.expression.getText())) report(node.arguments[0]);
      if (ts.isNewExpression(node) && /TreeItem$/.test(node.expression.getText())) report(node.arguments?.[0]);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
