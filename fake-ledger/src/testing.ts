// The fake ledger's testing entry: the node with injectable HTTP faults (latency, resets, an HTML
// 500, a cut body, a redirect, a huge body), and what tests read of it. It does not ship: the demo
// ledger is demo.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeLedgerNode as ServingNode } from './fakeLedgerNode';
import { applyFault, sleepUntilClosed, type Fault, type FaultRule } from './httpFaults';

export { VERSION_STRINGS, type FakeLedgerNodeOptions, type FakeVersion, type RecordedRequest } from './fakeLedgerNode';
export type { Fault, FaultRule } from './httpFaults';

export class FakeLedgerNode extends ServingNode {
  private faults: FaultRule[] = [];

  /** Answers the next matching requests (`times`, else all) with the fault instead of the route. */
  injectFault(rule: FaultRule): void {
    this.faults.push({ ...rule });
  }

  clearFaults(): void {
    this.faults = [];
  }

  protected override async interpose(path: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    let fault = this.takeFault(path);
    while (fault?.type === 'latency') {
      // Ends early when the client goes away (a timeout, a cancel, the node closing): a latency
      // nobody waits for must not keep the process (a test run) alive.
      await sleepUntilClosed(fault.ms, res);
      if (res.destroyed || req.socket.destroyed) return true;
      fault = this.takeFault(path);
    }
    if (!fault) return false;
    applyFault(fault, req, res);
    return true;
  }

  private takeFault(path: string): Fault | undefined {
    const i = this.faults.findIndex((r) => r.path === undefined || r.path === path);
    if (i < 0) return undefined;
    const rule = this.faults[i];
    if (rule.times !== undefined && --rule.times <= 0) this.faults.splice(i, 1);
    return rule.fault;
  }
}
