// From the ledger to the code: template, interface and choice names in panels carry
// their ids as escaped data attributes (never markup), hovers link to the definition, and the
// open command reads its arguments defensively.
import * as assert from 'node:assert/strict';
import { contractBody } from '../../../src/panels/html/contractHtml';
import { damlLink } from '../../../src/panels/html/damlLinkHtml';
import { eventDetailHtml } from '../../../src/panels/html/eventDetailHtml';
import { hoverMarkdown } from '../../../src/lookups/hoverMarkdown';
import { treeEvent } from '../../../src/lookups/exerciseTree';
import type { ContractLookup } from '../../../src/lookups/ledgerLookups';
import { EVIL, EVIL_TEMPLATE, hostileContract, hostileTransaction } from '../../support/hostileLookups';

const attrs = (body: string, name: string) => [...body.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map((m) => m[1]);
const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#96;/g, '`')
    .replace(/&amp;/g, '&');

describe('Daml links in panels', () => {
  it('a contract panel links its template (with the package name) and interface views; hostile ids stay attribute text', () => {
    const body = contractBody(hostileContract()).text;
    const templates = attrs(body, 'data-daml-template').map(unescape);
    assert.ok(templates.length >= 3, 'created, view, archived');
    assert.ok(templates.every((t) => t === EVIL_TEMPLATE));
    assert.deepEqual([...new Set(attrs(body, 'data-daml-package').map(unescape))], [EVIL]);
    assert.ok(!/data-daml-template="[^"]*</.test(body), 'no raw < in an attribute');
    assert.ok(!body.includes('<img'), 'never markup');
  });

  it('an exercised event links its choice to the interface it came through, else to its template', () => {
    const tx = hostileTransaction(3);
    if (!tx.found || tx.update !== 'transaction') throw new Error('fixture');
    const exercised = treeEvent(tx.transaction.events[2]);
    const detail = eventDetailHtml(exercised).text;
    assert.equal(unescape(attrs(detail, 'data-daml-choice')[0]), EVIL);
    const viaInterface = eventDetailHtml({
      kind: 'exercised',
      event: {
        ...(tx.transaction.events[2] as { ExercisedEvent: object }).ExercisedEvent,
        choice: 'Holding_Split',
        interfaceId: 'h:Finance.Holding:Holding',
        packageName: 'canton-lens-demo-model',
      } as never,
    }).text;
    const choiceLink = /<a [^>]*data-daml-choice="Holding_Split"[^>]*>/.exec(viaInterface)![0];
    assert.match(choiceLink, /data-daml-template="h:Finance.Holding:Holding"/);
    assert.doesNotMatch(choiceLink, /data-daml-package/, "the event's package is the template's, not the interface's");
    assert.match(viaInterface, /data-daml-template="h:Finance.Holding:Holding"[^>]*>[^<]*<bdi>Finance.Holding:Holding/);
  });

  it('builds one link element per name', () => {
    assert.equal(
      damlLink('Iou:Iou', { templateId: 'p:Iou:Iou', packageName: 'm' }).text,
      '<a href="#" class="daml-link" data-daml-template="p:Iou:Iou" data-daml-package="m" title="p:Iou:Iou: open its Daml definition"><bdi>Iou:Iou</bdi></a>',
    );
  });

  it("a hover on a contract id links to its template's definition", () => {
    const l = hostileContract() as Extract<ContractLookup, { found: true }>;
    l.response.created!.createdEvent.templateId = 'p:Iou:Iou';
    l.response.created!.createdEvent.packageName = 'canton-lens-demo-model';
    const md = hoverMarkdown({ match: { kind: 'contract', text: l.contractId, start: 0, end: 1 }, lookup: l, nodeName: 'n' });
    const link = /\(command:cantonLens\.openDamlDefinition\?([^ )]+)/.exec(md);
    assert.ok(link);
    assert.deepEqual(JSON.parse(decodeURIComponent(link[1])), ['p:Iou:Iou', null, 'canton-lens-demo-model']);
  });
});
