// Drives the VS Code Server's workbench in Chromium as a person would: the packaged .vsix
// installed, the command palette, the views. For UI tests and README screenshots.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packagedVsix } from '../support/packagedVsix';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  CHROMIUM,
  CHROMIUM_FLAGS,
  PROJECT_ROOT,
  ensureVsCodeServer,
  isolatedEnv,
  seedUserSettings,
  startVsCodeServer,
  type RunningServer,
} from '../vscode/vscodeServer';

export const SCREENSHOT_DIR = path.join(PROJECT_ROOT, '.cache', 'screenshots');

export class Workbench {
  private constructor(
    readonly page: Page,
    private readonly browser: Browser,
    private readonly server: RunningServer | undefined,
    private readonly root: string | undefined,
  ) {}

  /** Packages the extension, installs the .vsix into a fresh VS Code Server and opens its workbench. */
  static async open(
    options: { folder?: string; settings?: Record<string, unknown>; distrustFolder?: boolean; env?: NodeJS.ProcessEnv } = {},
  ): Promise<Workbench> {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'canton-lens-ui-'));
    const vsix = await packagedVsix();
    const env = isolatedEnv(root, options.env);
    const dirs = { userDataDir: path.join(root, 'user-data'), extensionsDir: path.join(root, 'extensions'), serverDataDir: path.join(root, 'server-data') };
    execFileSync(
      process.execPath,
      [
        ensureVsCodeServer(),
        '--install-extension',
        vsix,
        '--extensions-dir',
        dirs.extensionsDir,
        '--server-data-dir',
        dirs.serverDataDir,
        '--user-data-dir',
        dirs.userDataDir,
        '--accept-server-license-terms',
      ],
      { env, stdio: 'ignore' },
    );
    const trust = options.distrustFolder ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'always' } : {};
    seedUserSettings(dirs.userDataDir, {
      'workbench.colorTheme': 'Default Dark Modern',
      'window.commandCenter': false,
      'workbench.tips.enabled': false,
      ...trust,
      ...options.settings,
    });
    const server = await startVsCodeServer({ ...dirs, env, workspaceTrust: options.distrustFolder });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, env: env });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const folder = options.folder ?? path.join(root, 'workspace');
    fs.mkdirSync(folder, { recursive: true });
    await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // Answered as a person who cloned a repository they do not know yet: Restricted Mode.
    if (options.distrustFolder)
      await page.locator('.monaco-dialog-box .monaco-button', { hasText: "No, I don't trust the authors" }).click({ timeout: 60_000 });
    await page.locator('.activitybar').waitFor({ timeout: 60_000 });
    return new Workbench(page, browser, server, root);
  }

  /** Opens in Chromium a workbench that something else serves (the demo): close() leaves the server. */
  static async attach(url: string): Promise<Workbench> {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.locator('.activitybar').waitFor({ timeout: 60_000 });
    return new Workbench(page, browser, undefined, undefined);
  }

  /**
   * Closes an editor tab by its close button: the palette's F1 may not reach the workbench while a
   * walkthrough has the focus.
   */
  async closeTab(title: string): Promise<void> {
    const tab = this.page.locator('.tabs-container .tab', { hasText: title }).first();
    await tab.hover();
    await tab.locator('.tab-actions .action-label').first().click();
    await tab.waitFor({ state: 'hidden' });
  }

  /** F1, the command's palette title, Enter. */
  async runCommand(title: string): Promise<void> {
    const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\.\\.\\.|…)?$`);
    const row = this.page.locator('.quick-input-list .monaco-list-row >> visible=true', { has: this.page.locator('.label-name', { hasText: exact }) }).first();
    // Right after start-up the palette may open before the commands are known: try again.
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('F1');
      const input = this.page.locator('.quick-input-widget input');
      await input.waitFor();
      await input.fill(`>${title}`);
      try {
        await row.waitFor({ timeout: 5_000 });
        break;
      } catch (e) {
        if (attempt >= 6) throw e;
        await this.page.keyboard.press('Escape');
      }
    }
    // The command whose label is exactly the title, even if fuzzy matching ranks another first.
    await row.click();
  }

  /**
   * Reloads the window as a person does (Developer: Reload Window). Unlike a bare page reload,
   * the workbench then writes its UI state (open editors, webview state) before unloading.
   */
  async reloadWindow(): Promise<void> {
    const loaded = this.page.waitForEvent('load', { timeout: 60_000 });
    await this.runCommand('Developer: Reload Window');
    await loaded;
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  }

  /** Types into the input box titled `title` (once it is open) and accepts it. */
  async answerInput(title: string, text: string): Promise<void> {
    await this.page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor();
    const input = this.page.locator('.quick-input-widget input');
    await input.fill(text);
    await this.page.keyboard.press('Enter');
  }

  /**
   * Picks an item of the quick pick titled `title` as a person does from the keyboard: types to
   * filter and presses Enter. The title makes sure it is that pick (not an earlier list still in
   * the page, hidden), and only a visible row counts.
   */
  async pickItem(title: string | RegExp, item: string): Promise<void> {
    await this.page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor();
    const input = this.page.locator('.quick-input-widget input');
    await input.fill(item);
    await this.page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: item }).first().waitFor();
    await this.page.keyboard.press('Enter');
  }

  /** Opens a workspace file by name through Quick Open. */
  async openFile(name: string): Promise<void> {
    // Into the first editor group, beside which panels open.
    await this.runCommand('View: Focus First Editor Group');
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(name);
    await this.page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: name }).first().waitFor();
    await this.page.keyboard.press('Enter');
    await this.page.locator('.tabs-container .tab.active', { hasText: name }).first().waitFor();
  }

  /** Moves the cursor with "Go to Line/Column" (1-based). */
  async goTo(line: number, column: number): Promise<void> {
    await this.runCommand('Go to Line/Column');
    const input = this.page.locator('.quick-input-widget input');
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  /** The text of the webview panel whose tab is active. */
  webviewText(): Promise<string> {
    return this.webview().locator('main').innerText();
  }

  webview() {
    return this.page.frameLocator('iframe.webview.ready >> visible=true').frameLocator('iframe#active-frame');
  }

  /** Of the webviews visible side by side, the one whose page shows `text` in `root` (once one does). */
  async webviewShowing(text: RegExp, timeout = 30_000, root = 'main') {
    const deadline = Date.now() + timeout;
    for (;;) {
      const outer = this.page.locator('iframe.webview.ready >> visible=true');
      for (let i = 0; i < (await outer.count()); i++) {
        const frame = outer.nth(i).contentFrame().frameLocator('iframe#active-frame');
        if (
          text.test(
            await frame
              .locator(root)
              .innerText({ timeout: 1_000 })
              .catch(() => ''),
          )
        )
          return frame;
      }
      if (Date.now() > deadline) throw new Error(`No visible webview shows ${text}`);
      await this.page.waitForTimeout(250);
    }
  }

  /** "Canton: Set Token" through the palette, as a person pastes one. */
  async setToken(nodeName: string, token: string): Promise<void> {
    await this.runCommand('Canton: Set Token');
    // With more than one node configured, the command first asks which.
    const prompt = this.page.locator('.quick-input-widget .quick-input-title', { hasText: `Token for "${nodeName}"` });
    const pick = this.page.locator('.quick-input-list .monaco-list-row >> visible=true', { hasText: nodeName }).first();
    await prompt.or(pick).first().waitFor();
    if (!(await prompt.isVisible())) await pick.click();
    await this.answerInput(`Token for "${nodeName}"`, token);
    await this.page
      .locator('.notifications-toasts', { hasText: `Token stored for "${nodeName}"` })
      .first()
      .waitFor();
  }

  /** Keeps a screenshot of a failed test in .cache/screenshots. */
  async screenshotIfFailed(test: Mocha.Test | undefined): Promise<void> {
    if (test?.state === 'failed') await this.screenshot(`failed-${test.title.slice(0, 40).replace(/\W+/g, '-')}.png`);
  }

  /** Shows a view container of the activity bar (a click on an open one would close it). */
  async openView(activityTitle: string): Promise<void> {
    const item = this.page.locator('.activitybar .action-item', { has: this.page.locator(`a[aria-label^="${activityTitle}"]`) }).first();
    if (!((await item.getAttribute('class')) ?? '').split(' ').includes('checked')) await item.click();
  }

  /** A row of the tree in the side bar, by its text. */
  row(text: string) {
    return this.page.locator('.sidebar .monaco-list-row', { hasText: text }).first();
  }

  /**
   * Waits until a tree row matches `pattern`, expanding the rows named in `expand` on the way and
   * again if a refresh re-rendered them closed (a click landing mid-render only selects).
   */
  async waitForTreeRow(pattern: RegExp, expand: string[] = [], timeout = 30_000): Promise<string[]> {
    const deadline = Date.now() + timeout;
    for (;;) {
      for (const name of expand) {
        const row = this.row(name);
        if ((await row.count()) > 0 && (await row.getAttribute('aria-expanded')) === 'false') {
          await row
            .locator('.monaco-tl-twistie')
            .click({ timeout: 2_000 })
            .catch(() => undefined);
        }
      }
      const rows = await this.treeRows();
      if (rows.some((r) => pattern.test(r))) return rows;
      if (Date.now() > deadline) throw new Error(`No tree row matches ${pattern}: ${rows.join(' | ')}`);
      await this.page.waitForTimeout(200);
    }
  }

  /** The text of every row of the side bar's trees, label and description. */
  async treeRows(): Promise<string[]> {
    type El = { querySelector(s: string): { textContent: string | null } | null };
    return this.page.locator('.sidebar .monaco-list-row').evaluateAll((rows) =>
      rows.map((r) => {
        const part = (s: string) => (r as unknown as El).querySelector(s)?.textContent ?? '';
        return `${part('.label-name')} ${part('.label-description')}`.replace(/\s+/g, ' ').trim();
      }),
    );
  }

  /** Drags the side bar's edge, so long descriptions show in screenshots. */
  async widenSideBar(width: number): Promise<void> {
    const box = await this.page.locator('.sidebar').boundingBox();
    if (!box) return;
    const edge = box.x + box.width;
    await this.page.mouse.move(edge + 1, box.y + 200);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width, box.y + 200, { steps: 5 });
    await this.page.mouse.up();
    await this.page.mouse.move(box.x + width + 300, box.y + 400);
  }

  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, name);
    await this.page.screenshot({ path: file });
    return file;
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    this.server?.stop();
    if (this.root) fs.rmSync(this.root, { recursive: true, force: true });
  }
}
