// The packaged extension's manifest and activation, inside a real VS Code.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as vscode from 'vscode';
import { t } from '../../../src/l10n/l10n';

const EXTENSION_ID = 'canton-lens.canton-lens';

function getJson(url: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}

describe('Canton Lens in VS Code', () => {
  it('is installed from the development path with its manifest', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    assert.equal(ext.packageJSON.displayName, 'Canton Lens');
  });

  it('activates without error', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('routes the strings of its plain modules through vscode.l10n', async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    // The bundle holds its own copy of the l10n module; the translator it set is shared.
    const translator = (globalThis as Record<symbol, unknown>)[Symbol.for('canton-lens.l10n.translator')];
    assert.equal(typeof translator, 'function', 'activation set no translator');
    assert.equal(
      t('Update {0} is a {1}, not a transaction.', 'u1', 'Reassignment'),
      vscode.l10n.t('Update {0} is a {1}, not a transaction.', 'u1', 'Reassignment'),
    );
  });

  it('registers every contributed command', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const contributed: string[] = (ext.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command);
    assert.ok(contributed.length > 0);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of contributed) assert.ok(registered.has(id), `${id} is contributed but not registered`);
  });

  it('starts the embedded demo ledger, loading the HTTP layer on first use', async () => {
    const info = await vscode.commands.executeCommand<{ url: string; version: string }>('cantonLens.startDemoLedger');
    assert.ok(info, 'the command returned nothing: it failed');
    assert.equal(info.version, '3.5.10');
    const res = await getJson(`${info.url}/v2/version`);
    assert.equal(res.status, 200);
    assert.equal((res.body as { version: string }).version, '3.5.10');
    // Running it again gives the same ledger, not a second one.
    const again = await vscode.commands.executeCommand<{ url: string; how: string }>('cantonLens.startDemoLedger');
    assert.equal(again?.url, info.url);
    assert.equal(again?.how, 'reused');
  });
});
