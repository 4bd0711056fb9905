// The fake ledger's shipping entry: the node the demo ledger runs (in the extension's process, or
// `npm run demo` through demoLedgerMain.ts), without the testing entry's faults.
export { FakeLedgerNode, VERSION_STRINGS, type FakeLedgerNodeOptions, type FakeVersion } from './fakeLedgerNode';
export { DEMO_PACKAGES, demoDar, demoPackageId, writeDemoDars, type DemoPackage } from './demoDars';
