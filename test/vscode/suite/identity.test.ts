// An answer belongs to who asked: switching a node's token between users of the fake node (reader,
// who may read every party; participant_admin, who may read nothing, so its lookups are refused
// before they are sent) never shows one user's answer
// as the other's, in panels, hovers, Recent Lookups and Look Up on All Nodes, nor when the switch
// happens while a lookup is in flight.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeLedgerNode } from '../../../fake-ledger/src/testing';
import { FakeTokenEndpoint, type FakeClient } from '../../support/fakeTokenEndpoint';
import type { LookupPanel, PanelTarget } from '../../../src/panels/lookupPanels';
import { cantonLens, resetNodes, until } from './testApi';

describe('Who asked: token switches', function () {
  this.timeout(60_000);
  let node: FakeLedgerNode;
  const LOOKUP = '/v2/events/events-by-contract-id';

  const setToken = (name: string, user: string) => vscode.commands.executeCommand('cantonLens.setToken', name, node.mintToken(user));
  /** The lookups the node received, by whose token. */
  const lookupsSent = () => node.requests.filter((r) => r.path === LOOKUP).length;
  const panelFor = async (t: PanelTarget | undefined, text: RegExp): Promise<LookupPanel> => {
    assert.ok(t, 'no panel was opened');
    const api = await cantonLens();
    return until(`a panel showing ${text}`, () => api.panels.panels.find((p) => p.current.id === t.id && p.current.kind === t.kind && text.test(p.lastBody)));
  };
  const closePanels = async () => {
    for (const p of (await cantonLens()).panels.panels) p.dispose();
  };
  const hoverText = async (doc: vscode.TextDocument, pos: vscode.Position) => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos);
    return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
  };
  /**
   * The hover once it has its answer. A hover waits 1.5 s for the node, then says it is still
   * looking; a loaded machine can take that long, and the next hover gets what that lookup found.
   */
  const answeredHover = (doc: vscode.TextDocument, pos: vscode.Position) =>
    until(
      'the hover to have its answer',
      async () => {
        const text = await hoverText(doc, pos);
        return /Still looking it up/.test(text) ? undefined : text;
      },
      30_000,
    );

  before(async () => {
    await resetNodes();
    const api = await cantonLens();
    await api.recent.clear();
    node = await FakeLedgerNode.start({ version: '3.5' });
    // No parties: lookups read as any party, which reader may and participant_admin may not.
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'who', url: node.url });
    await vscode.commands.executeCommand('cantonLens.selectNode', 'who');
  });
  beforeEach(async () => {
    await closePanels();
    await setToken('who', 'reader');
    node.clearFaults();
    node.requests.length = 0;
  });
  after(async () => {
    await closePanels();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await (await cantonLens()).recent.clear();
    await resetNodes();
    await node.close();
  });

  it("a panel names who it shows; after Set Token it says the token is someone else's at once, and asks again as them on one click: a 403", async () => {
    const api = await cantonLens();
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', node.ledger.samples.activeContract);
    const panel = await panelFor(target, /badge active/);
    assert.match(panel.lastBody, /As seen by reader: any party on the node/);
    const sent = lookupsSent();
    await setToken('who', 'participant_admin');
    await until('the stale-identity banner', () => /stale-identity/.test(panel.lastBody));
    assert.match(panel.lastBody, /Asked as reader; the token of who is now participant_admin\./);
    assert.match(panel.lastBody, /data-action="askAgain"[^>]*>Ask Again as participant_admin</);
    assert.equal(lookupsSent(), sent, 'the banner costs no request');
    // Right after the change a lookup asks the node, as the new identity: nothing of reader's is served.
    // Its rights (ParticipantAdmin only) read nothing: refused from what the node said of them, not sent.
    await assert.rejects(
      api.lookups.contract(api.nodes.find('who')!, node.ledger.samples.activeContract),
      (e: { kind: string }) => e.kind === 'permissionDenied',
    );
    assert.equal(lookupsSent(), sent);
    await panel.askAgain();
    assert.equal(lookupsSent(), sent);
    assert.match(panel.lastBody, /participant_admin holds ParticipantAdmin, but no right to read/);
    assert.doesNotMatch(panel.lastBody, /badge active|Create argument|stale-identity/);
    assert.match(panel.lastBody, /As seen by participant_admin: any party on the node \(parties from the token&#39;s rights\)/);
    // What was asked of the node as participant_admin (its user and rights) carried its token.
    const last = node.requests.filter((r) => r.path.endsWith('/rights')).at(-1)!;
    assert.equal(last.headers.authorization, `Bearer ${await api.nodes.credentials(api.nodes.find('who')!).then((c) => c.token)}`);
  });

  it('opening the same id again after a switch asks the node as the new identity; switching back shows the banner again', async () => {
    const id = node.ledger.samples.archivedContract;
    let target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', id);
    await panelFor(target, /badge archived/);
    const sent = lookupsSent();
    await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', id);
    assert.equal(lookupsSent(), sent, 'the same identity: an archived contract comes from the cache');
    await setToken('who', 'participant_admin');
    target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', id);
    const panel = await panelFor(target, /no right to read/);
    assert.equal(lookupsSent(), sent, "reopening judged as the new identity (refused by its rights, not served from reader's cache)");
    await setToken('who', 'reader');
    await panelFor(target, /stale-identity/);
    await panel.askAgain();
    assert.match(panel.lastBody, /badge archived/);
  });

  it('a hover never shows an answer asked as another identity: after the switch it asks and shows the 403', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'log', content: `contract ${node.ledger.samples.activeContract}` });
    const pos = new vscode.Position(0, 15);
    assert.match(await answeredHover(doc, pos), /Active · `Iou:Iou`[\s\S]*As seen by reader/);
    const sent = lookupsSent();
    assert.match(await hoverText(doc, pos), /Active/);
    assert.equal(lookupsSent(), sent, 'cached for reader');
    await setToken('who', 'participant_admin');
    const text = await answeredHover(doc, pos);
    assert.equal(lookupsSent(), sent, 'the hover judged the lookup as participant_admin (its rights read nothing)');
    assert.doesNotMatch(text, /Active|As seen by reader/);
    assert.match(text, /no right to read/);
  });

  it('a hover that outwaits the node says it is still looking; the next hover shows what that same request found', async () => {
    const id = node.ledger.samples.bankOnlyContract;
    const doc = await vscode.workspace.openTextDocument({ language: 'log', content: `contract ${id}` });
    const pos = new vscode.Position(0, 15);
    // Longer than the hover waits, as a loaded machine or a slow node can make any lookup.
    node.injectFault({ path: LOOKUP, fault: { type: 'latency', ms: 3000 }, times: 1 });
    assert.match(await hoverText(doc, pos), /Still looking it up…/);
    assert.match(await answeredHover(doc, pos), /Active · `Iou:Iou`[\s\S]*As seen by reader/);
    assert.equal(lookupsSent(), 1, 'the hovers waited for the one request in flight');
  });

  it('Recent Lookups record who asked; reopening one asks as the current token and says it differs', async () => {
    const api = await cantonLens();
    await api.recent.clear();
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', node.ledger.samples.activeContract);
    await panelFor(target, /badge active/);
    const entry = await until('a recent lookup', () => api.recent.all().find((e) => e.id === node.ledger.samples.activeContract));
    assert.equal(entry.askedByUser, 'reader');
    const item = api.nodeTree.getTreeItem({ kind: 'recent', name: entry.node, entry });
    assert.match(String(item.description), /as reader/);
    await closePanels();
    await setToken('who', 'participant_admin');
    const sent = lookupsSent();
    const reopened = await vscode.commands.executeCommand<PanelTarget>(item.command!.command, ...(item.command!.arguments ?? []));
    const panel = await panelFor(reopened, /no right to read/);
    assert.equal(lookupsSent(), sent, "judged again as participant_admin, nothing of reader's served");
    assert.match(panel.lastBody, /Recent Lookups had this as asked by reader; it was asked again as participant_admin\./);
    assert.doesNotMatch(panel.lastBody, /badge active/);
  });

  it('Look Up on All Nodes: two nodes on one URL with different tokens answer apart; a switch shows the banner and asks again', async () => {
    const api = await cantonLens();
    await vscode.commands.executeCommand('cantonLens.addNode', { name: 'who as admin', url: node.url });
    try {
      await setToken('who as admin', 'participant_admin');
      const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.lookUpOnAllNodes', node.ledger.samples.activeContract);
      const panel = await panelFor(target, /on every node/);
      assert.match(panel.lastBody, /Visible on 1 of 1 node asked\. 1 node could not be asked/, 'a token that may not read is not counted as "not seen"');
      assert.match(
        panel.lastBody,
        /<bdi>who<\/bdi><\/td>\s*<td><ul class="cells"><li class="cell cell-seen"[\s\S]*active · Iou:Iou[\s\S]*<td class="muted"><bdi>As seen by reader/,
      );
      assert.match(
        panel.lastBody,
        /<bdi>who as admin<\/bdi><\/td>\s*<td><span class="error-text">The token may not read here: <bdi>The token&#39;s user participant_admin holds ParticipantAdmin, but no right to read[\s\S]*data-set-token-for="who as admin"/,
      );
      const sent = lookupsSent();
      await setToken('who', 'participant_admin');
      await until('the banner', () => /Asked as reader; the token of who is now participant_admin/.test(panel.lastBody));
      await panel.askAgain();
      assert.match(panel.lastBody, /No node could be asked/);
      assert.equal(lookupsSent(), sent, 'both nodes judged again as participant_admin: nothing sent');
      assert.doesNotMatch(panel.lastBody, /active · Iou:Iou|stale-identity/);
      assert.ok(api.panels.panels.includes(panel));
    } finally {
      await closePanels();
      const nodes = vscode.workspace.getConfiguration('cantonLens').get<{ name: string }[]>('nodes') ?? [];
      await vscode.workspace.getConfiguration('cantonLens').update(
        'nodes',
        nodes.filter((n) => n.name !== 'who as admin'),
        vscode.ConfigurationTarget.Global,
      );
    }
  });

  it("a token switched while a lookup is in flight: the late answer is shown as the old identity's, with the banner, and never served to the new one", async () => {
    const api = await cantonLens();
    const who = api.nodes.find('who')!;
    const id = node.ledger.samples.keyedContract;
    node.injectFault({ path: LOOKUP, fault: { type: 'latency', ms: 1500 }, times: 1 });
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', id);
    await until('the request in flight', () => lookupsSent() === 1);
    await setToken('who', 'participant_admin');
    const panel = await panelFor(target, /badge active/);
    assert.match(panel.lastBody, /As seen by reader/);
    await until('the banner', () => /Asked as reader; the token of who is now participant_admin/.test(panel.lastBody));
    assert.equal(await api.lookups.peek(who, 'contract', id), undefined, 'not under the new identity');
    await assert.rejects(api.lookups.contract(who, id), (e: { kind: string }) => e.kind === 'permissionDenied');
    assert.equal(lookupsSent(), 1, "the new identity was judged by its own rights (nothing of reader's served)");
  });

  it('a change of parties sets the answers aside and the panel says what the node reads as now', async () => {
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', node.ledger.samples.activeContract);
    const panel = await panelFor(target, /badge active/);
    const config = vscode.workspace.getConfiguration('cantonLens');
    const nodes = config.inspect<{ name: string }[]>('nodes')?.globalValue ?? [];
    try {
      await config.update(
        'nodes',
        nodes.map((n) => (n.name === 'who' ? { ...n, parties: [node.ledger.parties.Bob] } : n)),
        vscode.ConfigurationTarget.Global,
      );
      await until('the banner', () => /Asked as reader for any party on the node; who now reads as Bob::1220[0-9a-f]{2}…\./.test(panel.lastBody));
      const sent = lookupsSent();
      await panel.askAgain();
      assert.equal(lookupsSent(), sent + 1);
      assert.match(panel.lastBody, /Contract not found on who for CanReadAsAnyParty Bob::1220[0-9a-f]{2}…/, "Bob is no stakeholder of Alice's Iou");
    } finally {
      await config.update('nodes', nodes, vscode.ConfigurationTarget.Global);
    }
  });

  it('an OAuth2 refresh that returns another subject is a change: the open panel says so and the next lookup asks as the new user', async () => {
    const api = await cantonLens();
    const client: FakeClient = { secret: 'oidc-secret', user: 'reader' };
    const idp = await FakeTokenEndpoint.start({ 'canton-lens': client }, (user, exp) => node.mintToken(user, { exp }));
    const config = vscode.workspace.getConfiguration('cantonLens');
    const nodes = config.inspect<{ name: string }[]>('nodes')?.globalValue ?? [];
    try {
      await config.update(
        'nodes',
        [
          ...nodes,
          { name: 'oidc', url: node.url, auth: { type: 'clientCredentials', tokenUrl: idp.tokenUrl, clientId: 'canton-lens', scope: 'daml_ledger_api' } },
        ],
        vscode.ConfigurationTarget.Global,
      );
      await until('the oidc node', () => api.nodes.find('oidc'));
      await vscode.commands.executeCommand('cantonLens.setToken', 'oidc', 'oidc-secret');
      const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', node.ledger.samples.activeContract, 'oidc');
      const panel = await panelFor(target, /badge active/);
      assert.match(panel.lastBody, /As seen by reader/);
      // The identity provider now issues tokens for another user; the cached token expires.
      client.user = 'participant_admin';
      api.nodes.invalidateToken(api.nodes.find('oidc')!);
      const sent = lookupsSent();
      await assert.rejects(
        api.lookups.contract(api.nodes.find('oidc')!, node.ledger.samples.activeContract),
        (e: { kind: string }) => e.kind === 'permissionDenied',
      );
      assert.equal(lookupsSent(), sent, 'judged as the new subject (its rights read nothing)');
      assert.match(panel.lastBody, /Asked as reader; the token of oidc is now participant_admin\./);
    } finally {
      await closePanels();
      await config.update('nodes', nodes, vscode.ConfigurationTarget.Global);
      await idp.close();
    }
  });

  it('a token that is not a JWT is keyed by a digest kept in memory only: not in the page, the recent list or the log', async () => {
    const api = await cantonLens();
    const opaque = 'opaque-not-a-jwt-0123456789abcdef';
    await vscode.commands.executeCommand('cantonLens.setToken', 'who', opaque);
    const target = await vscode.commands.executeCommand<PanelTarget>('cantonLens.showContract', node.ledger.samples.activeContract);
    const panel = await panelFor(target, /did not accept the token/);
    assert.equal(lookupsSent(), 1, "nothing of reader's was served");
    assert.match(panel.lastBody, /As seen by a token without a user id/);
    const everything = [panel.webviewPanel.webview.html, JSON.stringify(api.recent.all()), api.log.recent.join('\n')].join('\n');
    assert.ok(!everything.includes('token#'), 'no digest');
    assert.ok(!everything.includes(opaque), 'no token');
  });
});
