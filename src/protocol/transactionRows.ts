// The rows of a transaction's event table and exercise tree, as host and page both read them (the
// page builds its table and tree from them). No `vscode` import.

/** One event row: [nodeId, kind, template, contractId, detail, parties]. */
export type EventRow = [number, 'created' | 'archived' | 'exercised', string, string, string, string[]];

/** One row of the exercise tree: [index, parent, depth, descendants, kind, template, choice, contract, parties, consuming, interface, nodeId]. */
export type TreeRow = [number, number, number, number, 'created' | 'exercised' | 'archived', string, string, string, string[], boolean, string, number];
