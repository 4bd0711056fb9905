// Payloads in the shape real nodes send them (nulls for optional fields, a proto3 status without
// its zero code), shown in full: a reassignment's traffic cost and its assigned contract's fields,
// implemented interfaces with their package ids, and why an interface view failed. All escaped.
import * as assert from 'node:assert/strict';
import type { JsReassignment } from '../../../src/ledger/apiTypes';
import type { TreeEvent } from '../../../src/lookups/exerciseTree';
import { eventDetailHtml } from '../../../src/panels/html/eventDetailHtml';
import { reassignmentBody } from '../../../src/panels/html/updateHtml';

const PKG = 'a'.repeat(64);
const IFACE = `${'b'.repeat(64)}:Splice.Api.Token.HoldingV1:Holding`;
const SYNC_A = `global-domain::1220${'c'.repeat(64)}`;
const SYNC_B = `private-sync::1220${'d'.repeat(64)}`;
const ALICE = `Alice::1220${'e'.repeat(64)}`;
const CID = `00${'f'.repeat(64)}ca1112`;
const EVIL = '<img src=x onerror=alert(1)>';

const reassignment = {
  updateId: `1220${'1'.repeat(64)}`,
  commandId: null,
  workflowId: '',
  offset: 812,
  recordTime: '2026-11-24T09:00:00.123456Z',
  synchronizerId: SYNC_B,
  traceContext: { traceparent: '00-aa-bb-01', tracestate: null },
  paidTrafficCost: 4096,
  events: [
    {
      JsAssignmentEvent: {
        source: SYNC_A,
        target: SYNC_B,
        reassignmentId: '0011',
        submitter: ALICE,
        reassignmentCounter: 1,
        createdEvent: {
          offset: 812,
          nodeId: 0,
          contractId: CID,
          templateId: `${PKG}:Main:Iou`,
          contractKey: null,
          createArgument: { owner: ALICE },
          createdEventBlob: '',
          interfaceViews: [],
          witnessParties: [ALICE],
          signatories: [ALICE],
          observers: [],
          createdAt: '2026-11-23T09:00:00.000001Z',
          packageName: 'iou-app',
          acsDelta: true,
        },
      },
    },
  ],
} as unknown as JsReassignment;

describe('real payloads, shown in full', () => {
  it("a reassignment's header has its paid traffic cost; the assigned contract its time, package, offset, node id and ACS delta", () => {
    const page = reassignmentBody(reassignment).text;
    assert.match(page, /Paid traffic cost[\s\S]*4,096 bytes/);
    assert.match(page, /<time datetime="2026-11-23T09:00:00.000001Z"/);
    assert.match(page, /iou-app/);
    assert.match(page, /createdEvent\.nodeId/);
    assert.match(page, /createdEvent\.acsDelta[\s\S]*?true/);
    assert.match(page, /createdEvent\.offset/);
  });

  it('implemented interfaces name their package id (hover and copy), and a failed interface view says why', () => {
    const exercised: TreeEvent = {
      kind: 'exercised',
      event: {
        offset: 9,
        nodeId: 1,
        contractId: CID,
        templateId: `${PKG}:Main:Iou`,
        interfaceId: null,
        choice: 'Transfer',
        choiceArgument: {},
        actingParties: [ALICE],
        consuming: true,
        witnessParties: [ALICE],
        lastDescendantNodeId: 1,
        exerciseResult: null,
        packageName: 'iou-app',
        implementedInterfaces: [IFACE],
        acsDelta: true,
      },
    } as unknown as TreeEvent;
    const x = eventDetailHtml(exercised).text;
    assert.match(x, new RegExp(`title="${IFACE}"`));
    assert.match(x, new RegExp(`data-copy="${IFACE}"`));
    assert.match(x, />Splice\.Api\.Token\.HoldingV1:Holding</);

    const created = (viewStatus: unknown, viewValue: unknown): TreeEvent =>
      ({
        kind: 'created',
        event: {
          ...(reassignment.events[0] as { JsAssignmentEvent: { createdEvent: object } }).JsAssignmentEvent.createdEvent,
          interfaceViews: [{ interfaceId: IFACE, viewStatus, viewValue }],
        },
      }) as unknown as TreeEvent;
    const failed = eventDetailHtml(created({ code: 9, message: `view failed: ${EVIL}`, details: [] }, null)).text;
    assert.match(failed, /failed \(gRPC status 9\)/);
    assert.match(failed, /<bdi>view failed: &lt;img src=x/);
    assert.ok(!failed.includes('<img'), 'the message is escaped');
    // proto3 leaves a zero code out: that is success, not a failure with no reason.
    const ok = eventDetailHtml(created({ message: '', details: [] }, { amount: '1.0' })).text;
    assert.match(ok, /computed/);
    assert.doesNotMatch(ok, /failed/);
  });
});
