// What every workbench UI test sets up and tears down, in one place: fake ledger nodes, a workspace
// folder, the packaged extension in a fresh VS Code Server's workbench, the nodes' tokens, a
// screenshot of each failed test. A describe calls `useWorkbench` with only what is special about
// it (node versions, files, settings, tokens, a `ready` step) and reads the handle's fields in its
// tests: they are filled in by the `before` hook this registers.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeLedgerNode, type FakeLedgerNodeOptions } from '../../fake-ledger/src/testing';
import { DEMO_TOKENS_ENV } from '../../src/nodes/demoTokens';
import { PROJECT_ROOT } from '../vscode/vscodeServer';
import { Workbench } from './workbench';

export interface UiFixture<N extends string> {
  wb: Workbench;
  /** The started fake nodes by name; a test that restarts one puts the new one here (closed after). */
  nodes: Record<N, FakeLedgerNode>;
  /** The workspace folder, if the options gave it files. */
  folder: string;
}

export interface UiFixtureOptions<N extends string> {
  /** Fake nodes to start, by the name they have in `cantonLens.nodes`. */
  nodes?: Record<N, FakeLedgerNodeOptions>;
  /** Folders of test/fixtures/workspace copied into the workspace folder. */
  fixtures?: string[];
  /** Files of the workspace folder (relative path → content), from the started nodes. */
  files?: (nodes: Record<NoInfer<N>, FakeLedgerNode>) => Record<string, string>;
  /** Parties in every node's entry of `cantonLens.nodes`; none by default (learned from the token's rights). */
  parties?: (node: FakeLedgerNode, nodes: Record<NoInfer<N>, FakeLedgerNode>) => string[];
  /** The active node; by default the first. */
  activeNode?: NoInfer<N>;
  /** User settings in place of the computed `cantonLens.nodes` (every node, its URL and `parties`) and `cantonLens.activeNode`. */
  settings?: (nodes: Record<NoInfer<N>, FakeLedgerNode>) => Record<string, unknown>;
  /**
   * Node name → user whose token (minted by that node) the extension holds from its start, handed
   * over as `npm run demo` does (CANTON_LENS_DEMO_TOKENS). For a test of "Canton: Set Token"
   * itself, set tokens through the palette in `ready` instead.
   */
  tokens?: Partial<Record<NoInfer<N>, string>>;
  /** Opens the folder in Restricted Mode. */
  distrustFolder?: boolean;
  /** What every test of the describe needs after that: run once the workbench is open and holds the tokens. */
  ready?: (ui: UiFixture<NoInfer<N>>) => Promise<void>;
}

/** Registers the describe's before, afterEach and after hooks; the handle's fields are filled in `before`. */
export function useWorkbench<N extends string = never>(options: UiFixtureOptions<N> = {}): UiFixture<N> {
  const ui = { nodes: {} } as UiFixture<N>;
  const started: FakeLedgerNode[] = [];

  before(async function () {
    const describeTitle = this.test?.parent?.title ?? 'ui';
    for (const [name, nodeOptions] of Object.entries(options.nodes ?? {}) as [N, FakeLedgerNodeOptions][]) {
      ui.nodes[name] = await FakeLedgerNode.start(nodeOptions);
      started.push(ui.nodes[name]);
    }
    const names = Object.keys(ui.nodes) as N[];
    if (options.fixtures || options.files) {
      ui.folder = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-ws-'));
      for (const dir of options.fixtures ?? [])
        fs.cpSync(path.join(PROJECT_ROOT, 'test', 'fixtures', 'workspace', dir), path.join(ui.folder, dir), { recursive: true });
      for (const [file, content] of Object.entries(options.files?.(ui.nodes) ?? {})) {
        fs.mkdirSync(path.dirname(path.join(ui.folder, file)), { recursive: true });
        fs.writeFileSync(path.join(ui.folder, file), content);
      }
    }
    const settings =
      options.settings?.(ui.nodes) ??
      (names.length === 0
        ? {}
        : {
            'cantonLens.nodes': names.map((name) => ({
              name,
              url: ui.nodes[name].url,
              ...(options.parties ? { parties: options.parties(ui.nodes[name], ui.nodes) } : {}),
            })),
            'cantonLens.activeNode': options.activeNode ?? names[0],
          });
    const tokens = Object.entries(options.tokens ?? {}) as [N, string][];
    const env = tokens.length
      ? { [DEMO_TOKENS_ENV]: JSON.stringify(Object.fromEntries(tokens.map(([name, user]) => [name, ui.nodes[name].mintToken(user)]))) }
      : undefined;
    ui.wb = await Workbench.open({ folder: ui.folder, settings, distrustFolder: options.distrustFolder, env });
    try {
      // The extension stores the tokens, then opens its walkthrough (as for the demo): once it
      // shows, the tokens are there. Closed, so the tests start from an empty editor area.
      if (env) {
        await ui.wb.page.locator('.tabs-container .tab', { hasText: 'Walkthrough: Canton Lens' }).first().waitFor({ timeout: 60_000 });
        await ui.wb.closeTab('Walkthrough: Canton Lens');
      }
      await options.ready?.(ui);
    } catch (e) {
      // As screenshotIfFailed names a failed test's, for a set-up that failed.
      await ui.wb.screenshot(`failed-before-${describeTitle.slice(0, 40).replace(/\W+/g, '-')}.png`).catch(() => undefined);
      throw e;
    }
  });
  afterEach(async function () {
    await ui.wb?.screenshotIfFailed(this.currentTest);
  });
  after(async () => {
    await ui.wb?.close();
    // A node a test restarted is in `nodes`; the one it replaced is already closed.
    for (const node of new Set([...started, ...Object.values<FakeLedgerNode>(ui.nodes)])) await node.close().catch(() => undefined);
    if (ui.folder) fs.rmSync(ui.folder, { recursive: true, force: true });
  });
  return ui;
}
