// Panels are readable in every kind of theme: in the real workbench, switched through the
// palette to light, dark, high contrast and high contrast light, each text the panel shows
// keeps a WCAG contrast of at least 4.5:1 (3:1 for large text) against what is behind it.
import * as assert from 'node:assert/strict';
import { shortId } from '../../src/ids/ledgerIds';
import { PREAPPROVAL_PARTY, preapprovalExecuteRequest } from '../support/executeRequests';
import { useWorkbench } from './uiFixture';

interface LowContrast {
  what: string;
  text: string;
  ratio: number;
  needed: number;
}

/** Runs in the webview: how many visible text elements it checked, and those below the WCAG AA minimum. */
function lowContrast(root: Element): { checked: number; low: LowContrast[] } {
  type Rgba = { r: number; g: number; b: number; a: number };
  const parse = (c: string): Rgba | undefined => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return undefined;
    const [r = 0, g = 0, b = 0, a = 1] = m[1]
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return { r, g, b, a };
  };
  const over = (top: Rgba, under: Rgba): Rgba => ({
    r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a),
    a: 1,
  });
  const background = (el: Element | null): Rgba => {
    const layers: Rgba[] = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) layers.push(c);
      if (c && c.a >= 1) break;
    }
    return layers.reduceRight((under, top) => over(top, under), { r: 255, g: 255, b: 255, a: 1 });
  };
  const luminance = ({ r, g, b }: Rgba) => {
    const f = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const found: LowContrast[] = [];
  let checked = 0;
  for (const el of Array.from(root.querySelectorAll('h1, h2, h3, th, td, p, span, code, a, button, summary, label, li'))) {
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
    if (!own || el.getClientRects().length === 0 || (el as HTMLButtonElement).disabled) continue;
    checked++;
    const style = getComputedStyle(el);
    const bg = background(el);
    const fg = over(parse(style.color)!, bg);
    const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x) as [number, number];
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const needed = large ? 3 : 4.5;
    if (ratio < needed)
      found.push({
        what: `${el.tagName.toLowerCase()}.${el.className}`,
        text: (el.textContent ?? '').trim().slice(0, 40),
        ratio: Math.round(ratio * 100) / 100,
        needed,
      });
  }
  return { checked, low: found };
}

describe('UI: panels in light, dark and high-contrast themes', function () {
  this.timeout(300_000);
  let tabs: string[] = [];
  // Every kind of panel open before the themes change: three lookups from a log, the all-nodes
  // panel and the review of a prepared transaction.
  const ui = useWorkbench({
    nodes: { participant1: { version: '3.5', bigTransactionEvents: 20 } },
    parties: (node) => [node.ledger.parties.Alice],
    files: ({
      participant1: {
        ledger: { samples: s },
      },
    }) => ({
      'ledger.log': `contractId=${s.activeContract}\nupdateId=${s.transferUpdate}\narchived=${s.archivedContract}\n`,
      'preapproval.execute.json': JSON.stringify(preapprovalExecuteRequest(PREAPPROVAL_PARTY, '8a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'), null, 2),
    }),
    tokens: { participant1: 'alice' },
    ready: async ({ wb, nodes }) => {
      const s = nodes.participant1.ledger.samples;
      tabs = [
        `Contract ${shortId(s.activeContract)}`,
        `Transaction ${shortId(s.transferUpdate)}`,
        `Contract ${shortId(s.archivedContract)}`,
        `All nodes ${shortId(s.activeContract)}`,
        'Review preapproval.execute.json',
      ];
      for (const [line, ready] of [
        [1, 'Active'],
        [2, 'Committed'],
        [3, 'Archived'],
      ] as const) {
        await wb.openFile('ledger.log');
        await wb.goTo(line, 20);
        await wb.runCommand('Canton: Inspect Id at Cursor');
        await wb.webview().locator('.badge', { hasText: ready }).waitFor({ timeout: 30_000 });
      }
      await wb.openFile('ledger.log');
      await wb.goTo(1, 20);
      await wb.runCommand('Canton: Look Up on All Nodes');
      await wb.webview().locator('.asked', { hasText: 'Visible on 1 of 1 node' }).waitFor({ timeout: 30_000 });
      await wb.openFile('preapproval.execute.json');
      await wb.runCommand('Canton: Execute Prepared Transaction');
      await wb.webview().locator('.hash-match').waitFor({ timeout: 60_000 });
    },
  });

  const themes = [
    ['Light Modern', 'vscode-light'],
    ['Dark Modern', 'vscode-dark'],
    ['Dark High Contrast', 'vscode-high-contrast'],
    ['Light High Contrast', 'vscode-high-contrast-light'],
  ] as const;
  for (const [theme, bodyClass] of themes) {
    it(`keeps every text of the contract (active, archived), transaction, all-nodes and review panels readable in ${theme}`, async () => {
      await ui.wb.runCommand('Preferences: Color Theme');
      const input = ui.wb.page.locator('.quick-input-widget input');
      await input.fill(theme);
      await ui.wb.page
        .locator('.quick-input-list .monaco-list-row >> visible=true', { has: ui.wb.page.locator('.label-name', { hasText: new RegExp(`^${theme}$`) }) })
        .first()
        .click();
      const problems: string[] = [];
      for (const tab of tabs) {
        await ui.wb.page.locator('.tabs-container .tab', { hasText: tab }).first().click();
        const panel = ui.wb.webview();
        await panel.locator(`body.${bodyClass}`).waitFor({ timeout: 30_000 });
        await panel.locator('main h1').first().waitFor();
        const { checked, low } = await panel.locator('main').evaluate(lowContrast);
        assert.ok(checked >= 5, `${tab}: only ${checked} texts found to check`);
        problems.push(...low.map((l) => `${tab}: ${l.what} "${l.text}": ${l.ratio}:1 < ${l.needed}:1`));
      }
      await ui.wb.screenshot(`theme-${bodyClass}.png`);
      assert.deepEqual(problems, []);
    });
  }
});
