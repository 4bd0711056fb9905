// The feature descriptor of every fake node, as a person reads it in the tree.
export const FAKE_NODE_FEATURE_ROWS = [
  'Static time (experimental): not supported',
  'Command inspection (experimental): supported',
  'User management: supported',
  'Max rights per user: 1,000',
  'Max users page size: 1,000',
  'Max parties page size: 10,000',
  'Offset checkpoint max delay: 1.5 s',
  'Max vetted packages page size: 100',
];
