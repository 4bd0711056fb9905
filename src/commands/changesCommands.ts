// Canton: Mark Ledger Point (remember a node's ledger end, say before a test run) and Canton: What
// Changed… (two points: the ledger end now, a marked point, an offset or a time; the contracts the
// token's parties saw created and archived between them, in a panel).
import * as vscode from 'vscode';
import type { CommandRegistrar } from './commandRegistrar';
import { asSeenBy, hasPagedEndpoints } from '../browse/browseForms';
import { offsetAtTime } from '../browse/changesReader';
import { isLedgerApiError } from '../ledger/ledgerApiError';
import { checkRange, type ChangesMethod } from '../browse/ledgerChanges';
import { CHANGE_KIND_FILTERS, type ChangeKindFilter } from '../browse/changeView';
import type { NodeConfig } from '../nodes/nodeSettings';
import { formatCount, localDateTime, relativeTime } from '../l10n/forPeople';
import { ChangesPanel, type ChangesRequest } from '../panels/changesPanel';
import type { LookupPanels } from '../panels/lookupPanels';
import type { NodeReader } from '../services/ledgerNodes';
import type { LedgerPointStore } from '../services/ledgerPointStore';
import type { UpdateRow } from '../protocol/updateRows';
import { nodeNameOf, stringList, nodeForCommand } from './nodeArgument';
import { pickPayloadFilter } from '../panels/payloadFilterPick';
import { COMMAND } from '../ids/commandIds';
import { runCommand } from '../services/runCommand';

export interface ChangesDeps {
  nodes: NodeReader;
  panels: LookupPanels;
  points: LedgerPointStore;
  /** The latest rows of the node's open Follow Updates panels, newest first. */
  updateRows: (node: string) => readonly UpdateRow[];
}

/** What What Changed may be given besides the two points. */
interface ChangesOptions {
  templates?: string[];
  interfaces?: string[];
  parties?: string[];
  method?: ChangesMethod;
  /** Read in ledger-effects shape: archives name their choice. */
  ledgerEffects?: boolean;
  /** The rows shown first. */
  kind?: ChangeKindFilter;
}

interface Point {
  offset: number;
  label?: string;
}

async function nodeFor(deps: ChangesDeps, arg: unknown, placeHolder: string): Promise<NodeConfig | undefined> {
  const named = nodeNameOf(arg);
  const node = named !== undefined ? deps.nodes.find(named) : await nodeForCommand(deps.nodes, undefined, placeHolder);
  if (!node)
    void vscode.window.showWarningMessage(
      named !== undefined
        ? vscode.l10n.t('No ledger node named "{0}": add it (Canton: Add Ledger Node), or pick another.', named)
        : vscode.l10n.t('No ledger node: add one (Canton: Add Ledger Node) or start the demo ledger.'),
    );
  return node;
}

/** A point given as an argument: an offset, "end", a marked point's label, or a time. */
async function pointOf(
  deps: ChangesDeps,
  node: NodeConfig,
  arg: unknown,
  end: number,
  earliest: number,
  o: ChangesOptions,
): Promise<Point | string | undefined> {
  if (typeof arg === 'number') return { offset: arg };
  if (typeof arg !== 'string' || !arg.trim()) return undefined;
  const text = arg.trim();
  if (/^\d+$/.test(text)) return { offset: Number(text) };
  if (text === 'end') return { offset: end, label: vscode.l10n.t('the ledger end') };
  const marked = deps.points.of(node.name).find((p) => p.label === text);
  if (marked) return { offset: marked.offset, label: marked.label };
  const time = Date.parse(text);
  if (Number.isNaN(time)) return vscode.l10n.t('"{0}" is not an offset, "end", a marked point or a time (like 2026-11-26T09:30:00Z).', text);
  try {
    const found = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Finding the offset of {0} on {1}…', text, node.name), cancellable: true },
      (_progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        return offsetAtTime(deps.nodes.client(node), {
          time,
          earliest,
          end,
          parties: o.parties,
          templates: o.templates,
          interfaces: o.interfaces,
          signal: ac.signal,
        });
      },
    );
    return { offset: found.offset, label: found.beforeHistory ? vscode.l10n.t('{0}, before the node\u2019s history', text) : text };
  } catch (e) {
    return vscode.l10n.t(
      'Could not find the offset of {0}: {1} Give an offset instead.',
      text,
      isLedgerApiError(e) ? e.explanation : String((e as Error)?.message ?? e),
    );
  }
}

/** A pick of the range's start or end: the ledger end, the marked points, an offset, a time. */
async function pickPoint(
  deps: ChangesDeps,
  node: NodeConfig,
  which: 'from' | 'to' | 'at',
  end: number,
  earliest: number,
  after: number,
  o: ChangesOptions,
): Promise<Point | string | undefined> {
  type Item = vscode.QuickPickItem & { point?: Point; ask?: 'offset' | 'time' };
  const now = Date.now();
  const items: Item[] = [];
  if (which !== 'from')
    items.push({
      label: vscode.l10n.t('The ledger end now'),
      description: vscode.l10n.t('offset {0}', formatCount(end)),
      point: { offset: end, label: vscode.l10n.t('the ledger end') },
    });
  for (const p of deps.points.of(node.name)) {
    // A point after the ledger end was marked before the ledger was reset (or on another node of that name).
    if ((which === 'to' && p.offset <= after) || p.offset > end) continue;
    items.push({
      label: `$(bookmark) ${p.label}`,
      description: vscode.l10n.t('offset {0}', formatCount(p.offset)),
      detail: relativeTime(new Date(p.markedAt).toISOString(), now),
      point: { offset: p.offset, label: p.label },
    });
  }
  for (const r of deps.updateRows(node.name)) {
    if (which === 'to' && r.offset <= after) continue;
    const what = [...r.choices, ...r.templates].slice(0, 3).join(', ');
    items.push({
      label: `$(pulse) ${vscode.l10n.t('offset {0}', formatCount(r.offset))}`,
      description: what,
      detail: vscode.l10n.t('From Follow Updates: {0}', relativeTime(r.recordTime, now) ?? r.recordTime),
      point: { offset: r.offset, label: vscode.l10n.t('offset {0} of Follow Updates', formatCount(r.offset)) },
    });
  }
  items.push({ label: vscode.l10n.t('An offset…'), ask: 'offset' }, { label: vscode.l10n.t('A time…'), ask: 'time' });
  const picked = await vscode.window.showQuickPick(items, {
    title:
      which === 'from'
        ? vscode.l10n.t('What Changed on {0}: since when?', node.name)
        : which === 'to'
          ? vscode.l10n.t('What Changed on {0}: until when?', node.name)
          : vscode.l10n.t('The active contracts on {0} as they were when?', node.name),
    placeHolder:
      which === 'from'
        ? deps.points.of(node.name).length
          ? vscode.l10n.t('A marked point, an offset or a time')
          : vscode.l10n.t('An offset or a time (Canton: Mark Ledger Point remembers one, say before a test run)')
        : vscode.l10n.t('The ledger end, a marked point, an offset or a time'),
  });
  if (!picked) return undefined;
  if (picked.point) return picked.point;
  if (picked.ask === 'offset') {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('An offset on {0}', node.name),
      prompt: vscode.l10n.t('From {0} (the pruning point) to {1} (the ledger end)', formatCount(earliest), formatCount(end)),
      validateInput: (v) => (/^\s*\d+\s*$/.test(v) ? undefined : vscode.l10n.t('An offset is a whole number, like {0}.', end)),
    });
    return typed === undefined ? undefined : { offset: Number(typed.trim()) };
  }
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('A time on {0}', node.name),
    value: new Date(now - 60 * 60_000).toISOString(),
    prompt: vscode.l10n.t('An ISO time: the last offset recorded at or before it is used'),
    validateInput: (v) => (Number.isNaN(Date.parse(v.trim())) ? vscode.l10n.t('A time like 2026-11-26T09:30:00Z.') : undefined),
  });
  return typed === undefined ? undefined : pointOf(deps, node, typed, end, earliest, o);
}

/** The node's ledger end and pruning point, or undefined after saying why they could not be read. */
async function rangeBounds(deps: ChangesDeps, node: NodeConfig): Promise<{ end: number; earliest: number } | undefined> {
  try {
    const end = (await deps.nodes.client(node).getLedgerEnd()).offset ?? 0;
    const pruned = await deps.nodes.facts.prunedUpTo(node, await deps.nodes.credentials(node));
    return { end, earliest: pruned.ok ? pruned.value : 0 };
  } catch (e) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Could not read the ledger end of {0}: {1} Check the node (Canton: Refresh) and try again.', node.name, (e as Error).message),
    );
    return undefined;
  }
}

export function registerChangesCommands(
  context: vscode.ExtensionContext,
  deps: ChangesDeps,
  register: CommandRegistrar = vscode.commands.registerCommand,
): void {
  const open = new Set<ChangesPanel>();
  context.subscriptions.push(
    { dispose: () => open.forEach((p) => p.dispose()) },
    register(COMMAND.markLedgerPoint, async (nodeArg?: unknown, labelArg?: unknown) => {
      const node = await nodeFor(deps, nodeArg, vscode.l10n.t('Mark a point on which ledger node?'));
      if (!node) return undefined;
      let end: number;
      try {
        end = (await deps.nodes.client(node).getLedgerEnd()).offset ?? 0;
      } catch (e) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Could not read the ledger end of {0}: {1}', node.name, (e as Error).message));
        return undefined;
      }
      const markedAt = Date.now();
      // A name the person finds again in the pickers; the time is the name they get by pressing Enter.
      const label =
        typeof labelArg === 'string' && labelArg.trim()
          ? labelArg.trim()
          : (
              await vscode.window.showInputBox({
                title: vscode.l10n.t('Mark Ledger Point'),
                prompt: vscode.l10n.t('A name for offset {0} on {1} (the ledger end now)', formatCount(end), node.name),
                value: localDateTime(markedAt),
                validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Give the point a name.')),
              })
            )?.trim();
      if (!label) return undefined;
      const point = { node: node.name, offset: end, label, markedAt };
      await deps.points.add(point);
      const whatChanged = vscode.l10n.t('What Changed Since');
      void vscode.window
        .showInformationMessage(
          vscode.l10n.t(
            'Marked "{0}": offset {1} on {2}. Find it in What Changed… (as From or To) and in Show Active Contracts At….',
            label,
            formatCount(end),
            node.name,
          ),
          whatChanged,
        )
        .then((pick) => pick === whatChanged && runCommand(COMMAND.whatChanged, label, 'end', node.name));
      return point;
    }),
    register(COMMAND.showActiveContractsAt, async (offsetArg?: unknown, nodeArg?: unknown, templateArg?: unknown) => {
      if (offsetArg !== null && typeof offsetArg === 'object' && nodeNameOf(offsetArg) !== undefined) [offsetArg, nodeArg] = [undefined, offsetArg];
      const node = await nodeFor(deps, nodeArg, vscode.l10n.t('Show the active contracts of which ledger node?'));
      if (!node) return undefined;
      const effective = await deps.nodes.facts.readAs(node);
      if (effective.refusal) return void vscode.window.showErrorMessage(effective.refusal);
      const bounds = await rangeBounds(deps, node);
      if (!bounds) return undefined;
      const { end, earliest } = bounds;
      const o: ChangesOptions = { parties: [...effective.parties] };
      const at = offsetArg !== undefined ? await pointOf(deps, node, offsetArg, end, earliest, o) : await pickPoint(deps, node, 'at', end, earliest, -1, o);
      if (typeof at === 'string') return void vscode.window.showErrorMessage(at);
      if (!at) return undefined;
      if (at.offset > end || at.offset < earliest) {
        void vscode.window.showErrorMessage(
          at.offset > end
            ? vscode.l10n.t('Offset {0} is after the node’s ledger end ({1}): nothing has happened there yet.', formatCount(at.offset), formatCount(end))
            : vscode.l10n.t(
                'The node has pruned its history up to offset {0}: the active contracts at {1} are gone from it. Pick {0} or later.',
                formatCount(earliest),
                formatCount(at.offset),
              ),
        );
        return undefined;
      }
      const templates = typeof templateArg === 'string' && templateArg ? [templateArg] : undefined;
      return runCommand(COMMAND.showActiveContracts, node.name, undefined, templates, { activeAtOffset: at.offset });
    }),
    register(COMMAND.whatChanged, async (fromArg?: unknown, toArg?: unknown, nodeArg?: unknown, optionsArg?: unknown) => {
      // From the node's context menu in the tree: the node is the first argument.
      if (fromArg !== null && typeof fromArg === 'object' && nodeNameOf(fromArg) !== undefined) [fromArg, nodeArg] = [undefined, fromArg];
      const node = await nodeFor(deps, nodeArg, vscode.l10n.t('What changed on which ledger node?'));
      if (!node) return undefined;
      const given = (optionsArg ?? {}) as Record<string, unknown>;
      const o: ChangesOptions = {
        templates: stringList(given.templates),
        interfaces: stringList(given.interfaces),
        parties: stringList(given.parties),
        method: given.method === 'updates' || given.method === 'activeSets' ? given.method : undefined,
        ledgerEffects: given.ledgerEffects === true,
        kind: CHANGE_KIND_FILTERS.find((k) => k === given.kind),
      };
      const client = deps.nodes.client(node);
      // Who reads: a time is found among what these parties see, and the range is read as them.
      const effective = await deps.nodes.facts.readAs(node, o.parties);
      if (effective.refusal) return void vscode.window.showErrorMessage(effective.refusal);
      o.parties = [...effective.parties];
      const bounds = await rangeBounds(deps, node);
      if (!bounds) return undefined;
      const { end, earliest } = bounds;
      const from = fromArg !== undefined ? await pointOf(deps, node, fromArg, end, earliest, o) : await pickPoint(deps, node, 'from', end, earliest, 0, o);
      if (typeof from === 'string') return void vscode.window.showErrorMessage(from);
      if (!from) return undefined;
      const to = toArg !== undefined ? await pointOf(deps, node, toArg, end, earliest, o) : await pickPoint(deps, node, 'to', end, earliest, from.offset, o);
      if (typeof to === 'string') return void vscode.window.showErrorMessage(to);
      if (!to) return undefined;
      const range = checkRange(from.offset, to.offset, { ledgerEnd: end, prunedUpTo: earliest });
      if (!range.ok) {
        const retry =
          range.from !== undefined && range.to !== undefined && range.from < range.to
            ? vscode.l10n.t('Use {0} to {1}', formatCount(range.from), formatCount(range.to))
            : undefined;
        const choice = await vscode.window.showErrorMessage(range.message, ...(retry ? [retry] : []));
        if (choice !== retry || !retry) return undefined;
        return runCommand(COMMAND.whatChanged, range.from, range.to, node.name, o);
      }
      const status = deps.nodes.status(node);
      const request: ChangesRequest = {
        nodeName: node.name,
        from: range.from,
        to: range.to,
        fromLabel: from.label,
        toLabel: to.label,
        parties: effective.parties,
        templates: o.templates,
        interfaces: o.interfaces,
        asSeenBy: asSeenBy(effective.parties),
        paged: hasPagedEndpoints(status.state === 'reachable' ? status.version : undefined),
        websocket: true,
        method: o.method,
        ledgerEffects: o.ledgerEffects,
        kind: o.kind,
      };
      const panel = new ChangesPanel(
        context.extensionUri,
        {
          client,
          panels: deps.panels,
          pickFilter: pickPayloadFilter,
          readAs: () => deps.nodes.facts.readAs(node, stringList(given.parties)),
          onIdentityChange: deps.nodes.onDidChangeIdentity,
        },
        request,
      );
      open.add(panel);
      panel.onDidDispose(() => open.delete(panel));
      void panel.load();
      return panel;
    }),
  );
}
