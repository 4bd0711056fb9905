// The JSON Ledger API's types the fake node serves, from the official generated types (3.5's
// schemas: the routes it serves differ between versions in paths, not in these shapes).
import type { v3_5 } from '@canton-network/core-ledger-client-types' with { 'resolution-mode': 'import' };

type Schemas = v3_5.components['schemas'];

export type GetLedgerApiVersionResponse = Schemas['GetLedgerApiVersionResponse'];
export type JsGetEventsByContractIdResponse = Schemas['JsGetEventsByContractIdResponse'];
export type JsCantonError = Schemas['JsCantonError'];
export type EventFormat = Schemas['EventFormat'];
export type Filters = Schemas['Filters'];
export type CreatedEvent = Schemas['CreatedEvent'];
export type ArchivedEvent = Schemas['ArchivedEvent'];
export type ExercisedEvent = Schemas['ExercisedEvent'];
export type LedgerEvent = Schemas['Event'];
export type JsTransaction = Schemas['JsTransaction'] & { transactionHash?: string };
