// The translation bundle is complete: every message of src/ is in l10n/bundle.l10n.json (and its
// pseudo-locale), and panels rendered through the pseudo-locale bundle, as VS Code would load it,
// show no English sentence outside ledger data.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { useTranslator } from '../../../src/l10n/l10n';
import { errorFromResponse } from '../../../src/ledger/ledgerApiError';
import { acsPageHtml, updatesPageHtml } from '../../../src/panels/html/browseHtml';
import { contractBody } from '../../../src/panels/html/contractHtml';
import { errorDetailsHtml } from '../../../src/panels/html/errorDetailsHtml';
import { errorBody, lookupActions, renderPanelPage } from '../../../src/panels/html/panelPage';
import { transactionBody } from '../../../src/panels/html/transactionHtml';
import { BUNDLE_FILE, L10N_DIR, PSEUDO_LOCALE, ROOT, englishBundle, extractMessages, pseudoLocalize, untranslatedLiterals } from '../../support/l10nExtract';
import { hostileContract, hostileTransaction } from '../../support/hostileLookups';

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
const pseudoBundle = () => readJson(path.join(L10N_DIR, `bundle.l10n.${PSEUDO_LOCALE}.json`));

/** The words of a page a person reads: text between tags and the attributes read aloud or hovered. */
function visibleWords(page: string): string[] {
  const decode = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  const noScripts = page
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/data-strings="[^"]*"/g, '');
  const texts = [...noScripts.matchAll(/>([^<]+)</g)].map((m) => m[1]);
  // A title that is one identifier is the spec's field name, kept as the spec spells it.
  const attributes = [...noScripts.matchAll(/\b(?:title|aria-label|placeholder|alt)="([^"]*)"/g)].map((m) => m[1]).filter((a) => !/^[A-Za-z]+$/.test(a));
  return [...texts, ...attributes].flatMap((t) => decode(t).split(/[^A-Za-zÀ-ž]+/)).filter((w) => w.length >= 4);
}

describe('the translation bundle', () => {
  afterEach(() => useTranslator(undefined));

  it('lists every message of src/ (npm run l10n:extract writes it), and no message is built at run time', () => {
    const { messages, forwarding, dynamic } = extractMessages();
    const onDisk = readJson(BUNDLE_FILE);
    const expected = englishBundle(messages);
    const missing = Object.keys(expected).filter((m) => !(m in onDisk));
    const stale = Object.keys(onDisk).filter((m) => !(m in expected));
    assert.deepEqual({ missing, stale }, { missing: [], stale: [] }, 'run `npm run l10n:extract`');
    assert.ok(messages.size > 800, `${messages.size} messages`);
    assert.deepEqual(dynamic, []);
    assert.deepEqual(
      forwarding.map((f) => f.replace(/:\d+$/, '')),
      ['extension.ts', 'panels/html/panelPage.ts', 'panels/html/safeHtml.ts'],
    );
  });

  it('has a pseudo-locale for every message and every manifest string, placeholders and ids intact', () => {
    const pseudo = pseudoBundle();
    const english = readJson(BUNDLE_FILE);
    assert.deepEqual(Object.keys(pseudo), Object.keys(english));
    for (const [m, p] of Object.entries(pseudo)) {
      assert.equal(p, pseudoLocalize(m), 'run `npm run l10n:extract`');
      assert.deepEqual(p.match(/\{\d+\}/g) ?? [], m.match(/\{\d+\}/g) ?? [], m);
    }
    assert.equal(pseudoLocalize('Run {0} or cantonLens.setToken'), '［Rüñ {0} õr cantonLens.setToken··········］');
    const nls = readJson(path.join(ROOT, 'package.nls.json'));
    assert.deepEqual(Object.keys(readJson(path.join(ROOT, `package.nls.${PSEUDO_LOCALE}.json`))), Object.keys(nls));
    const used = new Set([...fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8').matchAll(/"%([\w.-]+)%"/g)].map((m) => m[1]));
    assert.deepEqual(
      [...used].filter((k) => !(k in nls)),
      [],
      'every %key% of package.json is in package.nls.json',
    );
  });

  it('has no user-visible literal in the vscode modules outside l10n (messages, tree items, quick picks, input boxes)', () => {
    // The pseudo-locale cannot run in the VS Code Server here (it has no qps-ploc language pack, so
    // VS Code stays English): the places a vscode module hands a person a string are checked instead.
    assert.deepEqual(untranslatedLiterals(), []);
  });

  it('leaves no English word on a panel rendered in the pseudo-locale, other than ledger data', () => {
    const pseudo = pseudoBundle();
    // As vscode.l10n.t does with a bundle: the translation, or the English message if it is missing.
    useTranslator((message, args) => (pseudo[message] ?? message).replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])));
    const english = new Set(
      Object.keys(readJson(BUNDLE_FILE))
        .flatMap((m) => m.replace(/\{\d+\}|cantonLens\.[\w.]+|`[^`]*`/g, ' ').split(/[^A-Za-z]+/))
        .filter((w) => w.length >= 4)
        .map((w) => w.toLowerCase()),
    );
    const contract = hostileContract();
    const transaction = hostileTransaction(5);
    // Ledger data, and the request the error answers (its method and path), are shown as they are.
    const ledgerData = new Set(
      JSON.stringify([contract, transaction, 'POST /v2/updates/update-by-id'])
        .split(/[^A-Za-z]+/)
        .map((w) => w.toLowerCase()),
    );
    const browse = { nonce: 'n', cspSource: 'vscode-resource:', scriptUris: ['t.js'], styleUris: ['s.css'], title: 'Tîtlé', nodeName: 'p1', scope: 'Ālîçé' };
    const error = errorFromResponse({
      method: 'POST',
      path: '/v2/updates/update-by-id',
      status: 404,
      contentType: 'application/json',
      body: JSON.stringify({
        code: 'UPDATE_NOT_FOUND',
        cause: 'Çàüšé',
        correlationId: 'c',
        traceId: 't',
        context: {},
        resources: [],
        errorCategory: 11,
        grpcCodeValue: 5,
        retryInfo: null,
        definiteAnswer: null,
      }),
    });
    const pages: Record<string, string> = {
      contract: renderPanelPage({
        nonce: 'n',
        cspSource: 'vscode-resource:',
        scriptUri: 's.js',
        styleUri: 's.css',
        title: 'x',
        nodeName: 'p1',
        actions: lookupActions({ canGoBack: true, canGoForward: true, hasResult: true }),
        body: contractBody(contract),
      }),
      transaction: transactionBody(transaction).text,
      'ledger effects': transactionBody(transaction, 'TRANSACTION_SHAPE_LEDGER_EFFECTS').text,
      error: errorBody('update', error.explanation, [{ action: 'retry', label: 'Ŕétrý' }], errorDetailsHtml(error)).text,
      'active contracts': acsPageHtml(browse),
      tail: updatesPageHtml({ ...browse, start: '42' }),
    };
    const untranslated: string[] = [];
    for (const [name, page] of Object.entries(pages)) {
      const left = visibleWords(page).filter((w) => english.has(w.toLowerCase()) && !ledgerData.has(w.toLowerCase()));
      if (left.length > 0) untranslated.push(`${name}: ${[...new Set(left)].join(', ')}`);
    }
    assert.deepEqual(untranslated, []);
  });
});
