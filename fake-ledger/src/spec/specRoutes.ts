// The routes of the official OpenAPI files the fake node serves. `npm run spec:extract` copies
// their request and response schemas (with every component they reference) from spec/openapi/
// into servedSchemas.json; a unit test fails when the two drift apart.
export const SPEC_ROUTES = [
  'GET /v2/version',
  'GET /livez',
  'GET /readyz',
  'POST /v2/events/events-by-contract-id',
  'POST /v2/updates/update-by-id',
  'POST /v2/updates/update-by-offset',
  'POST /v2/updates/transaction-by-id',
  'POST /v2/interactive-submission/execute',
  'POST /v2/interactive-submission/prepare',
  'POST /v2/interactive-submission/executeAndWait',
  'POST /v2/interactive-submission/executeAndWaitForTransaction',
  'POST /v2/commands/completions',
  'POST /v2/commands/submit-and-wait-for-transaction',
  'POST /v2/commands/command-completions',
  'POST /v2/commands/completion-by-hash',
  'POST /v2/updates/update-by-hash',
  'POST /v2/parties/external/generate-topology',
  'POST /v2/parties/external/allocate',
  'GET /v2/state/ledger-end',
  'GET /v2/state/latest-pruned-offsets',
  'POST /v2/state/active-contracts',
  'POST /v2/state/active-contracts-page',
  'POST /v2/updates',
  'POST /v2/updates/get-updates-page',
  'GET /v2/authenticated-user',
  'GET /v2/users/{user-id}/rights',
  'GET /v2/parties/participant-id',
  'GET /v2/parties',
  'GET /v2/state/connected-synchronizers',
  'GET /v2/users',
  'POST /v2/users',
  'GET /v2/users/{user-id}',
  'PATCH /v2/users/{user-id}',
  'DELETE /v2/users/{user-id}',
  'POST /v2/users/{user-id}/rights',
  'PATCH /v2/users/{user-id}/rights',
  'PATCH /v2/users/{user-id}/identity-provider-id',
  'POST /v2/parties',
  'GET /v2/parties/{party}',
  'PATCH /v2/parties/{party}',
  'GET /v2/idps',
  'GET /v2/packages',
  'POST /v2/package-vetting/list',
  'POST /v2/package-vetting/update',
  'GET /v2/package-vetting',
  'POST /v2/dars',
  'POST /v2/dars/validate',
] as const;

export type SpecRoute = (typeof SPEC_ROUTES)[number];

export const SPEC_VERSIONS = ['3.4', '3.5', '3.6'] as const;

/** The websocket channels the fake node serves (AsyncAPI); command-completions from 3.5 on. */
export const SPEC_CHANNELS = ['/v2/state/active-contracts', '/v2/updates', '/v2/commands/completions', '/v2/commands/command-completions'] as const;

export type SpecChannel = (typeof SPEC_CHANNELS)[number];

/** The vendored AsyncAPI file of each version (spec/asyncapi/README.md). */
export const ASYNC_SPEC_FILES: Record<(typeof SPEC_VERSIONS)[number], string> = {
  '3.4': 'asyncapi-3.4.12-SNAPSHOT.yaml',
  '3.5': 'asyncapi-3.5.10-SNAPSHOT.yaml',
  '3.6': 'asyncapi-3.6.0-SNAPSHOT.yaml',
};

/** The vendored file of each emulated version (spec/openapi/README.md says where they come from). */
export const SPEC_FILES: Record<(typeof SPEC_VERSIONS)[number], string> = {
  '3.4': 'openapi-3.4.12-SNAPSHOT.yaml',
  '3.5': 'openapi-3.5.10-SNAPSHOT.yaml',
  '3.6': 'openapi-3.6.0-SNAPSHOT.yaml',
};
