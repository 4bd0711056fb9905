// Request and response types of the JSON Ledger API v2, from the official generated types.
// The 3.5 schemas are used: Canton 3.5 accepts clients built from the 3.4.0–3.5.0 specs (docs/ledger-api.md#versions).
import type { v3_5 } from '@canton-network/core-ledger-client-types' with { 'resolution-mode': 'import' };

type Schemas = v3_5.components['schemas'];
/**
 * A request type with the fields Canton's decoder requires made required: its case class has no
 * default for them, whatever the spec's `required` says (spec/canton-decoders-<version>.json).
 */
type AsCantonDecodes<T, K extends keyof T> = T & Required<Pick<T, K>>;

export type GetLedgerApiVersionResponse = Schemas['GetLedgerApiVersionResponse'];
export type FeaturesDescriptor = Schemas['FeaturesDescriptor'];
export type GetEventsByContractIdRequest = Schemas['GetEventsByContractIdRequest'];
export type JsGetEventsByContractIdResponse = Schemas['JsGetEventsByContractIdResponse'];
export type GetTransactionByIdRequest = Schemas['GetTransactionByIdRequest'];
export type JsGetTransactionResponse = Schemas['JsGetTransactionResponse'];
export type GetUpdateByIdRequest = Schemas['GetUpdateByIdRequest'];
export type JsGetUpdateResponse = Schemas['JsGetUpdateResponse'];
export type JsExecuteSubmissionRequest = AsCantonDecodes<Schemas['JsExecuteSubmissionRequest'], 'deduplicationPeriod'>;
export type ExecuteSubmissionResponse = Schemas['ExecuteSubmissionResponse'];
export type JsPrepareSubmissionRequest = AsCantonDecodes<Schemas['JsPrepareSubmissionRequest'], 'synchronizerId' | 'packageIdSelectionPreference'>;
export type JsPrepareSubmissionResponse = Schemas['JsPrepareSubmissionResponse'];
export type ExecuteSubmissionAndWaitResponse = Schemas['ExecuteSubmissionAndWaitResponse'];
export type JsCantonError = Schemas['JsCantonError'];
export type EventFormat = Schemas['EventFormat'];
export type TransactionFormat = Schemas['TransactionFormat'];
export type Filters = Schemas['Filters'];
export type CreatedEvent = Schemas['CreatedEvent'];
export type ArchivedEvent = Schemas['ArchivedEvent'];
export type ExercisedEvent = Schemas['ExercisedEvent'];
export type LedgerEvent = Schemas['Event'];
/** Canton 3.6 adds `transactionHash`; the generated 3.5 types predate it. */
export type JsTransaction = Schemas['JsTransaction'] & { transactionHash?: string };
export type JsReassignment = Schemas['JsReassignment'];
export type JsTopologyTransaction = Schemas['JsTopologyTransaction'];
export type UpdateFormat = Schemas['UpdateFormat'];
export type GetUpdateByOffsetRequest = Schemas['GetUpdateByOffsetRequest'];
// Ledger end, active contracts, update streams.
export type GetLedgerEndResponse = Schemas['GetLedgerEndResponse'];
export type GetLatestPrunedOffsetsResponse = Schemas['GetLatestPrunedOffsetsResponse'];
export type GetActiveContractsRequest = Schemas['GetActiveContractsRequest'];
export type JsGetActiveContractsResponse = Schemas['JsGetActiveContractsResponse'];
export type GetActiveContractsPageRequest = Schemas['GetActiveContractsPageRequest'];
export type JsGetActiveContractsPageResponse = Schemas['JsGetActiveContractsPageResponse'];
export type GetUpdatesRequest = Schemas['GetUpdatesRequest'];
export type JsGetUpdatesResponse = Schemas['JsGetUpdatesResponse'];
export type GetUpdatesPageRequest = Schemas['GetUpdatesPageRequest'];
export type JsGetUpdatesPageResponse = Schemas['JsGetUpdatesPageResponse'];
// The token's user, its rights, the participant and its parties.
export type GetUserResponse = Schemas['GetUserResponse'];
export type LedgerUser = Schemas['User'];
export type ListUserRightsResponse = Schemas['ListUserRightsResponse'];
export type UserRightJson = Schemas['Right'];
export type GetParticipantIdResponse = Schemas['GetParticipantIdResponse'];
export type ListKnownPartiesResponse = Schemas['ListKnownPartiesResponse'];
export type GetConnectedSynchronizersResponse = Schemas['GetConnectedSynchronizersResponse'];
// Administration: users, rights, parties.
export type ListUsersResponse = Schemas['ListUsersResponse'];
export type CreateUserRequest = Schemas['CreateUserRequest'];
export type CreateUserResponse = Schemas['CreateUserResponse'];
export type GrantUserRightsResponse = Schemas['GrantUserRightsResponse'];
export type RevokeUserRightsResponse = Schemas['RevokeUserRightsResponse'];
export type AllocatePartyRequest = Schemas['AllocatePartyRequest'];
export type AllocatePartyResponse = Schemas['AllocatePartyResponse'];
export type PartyDetails = Schemas['PartyDetails'];

// Interactive submission's outcome, executeAndWaitForTransaction and external parties.
export type CompletionStreamRequest = Schemas['CompletionStreamRequest'];
export type CompletionStreamResponse = Schemas['CompletionStreamResponse'];
export type Completion = Schemas['Completion1'] & { transactionHash?: string };
export type JsExecuteSubmissionAndWaitForTransactionRequest = AsCantonDecodes<
  Schemas['JsExecuteSubmissionAndWaitForTransactionRequest'],
  'deduplicationPeriod'
>;
export type JsExecuteSubmissionAndWaitForTransactionResponse = Schemas['JsExecuteSubmissionAndWaitForTransactionResponse'];
// Commands submitted by the token's user (not externally signed).
export type JsCommands = Schemas['JsCommands'];
export type JsSubmitAndWaitForTransactionRequest = Schemas['JsSubmitAndWaitForTransactionRequest'];
export type JsSubmitAndWaitForTransactionResponse = Schemas['JsSubmitAndWaitForTransactionResponse'];
export type GenerateExternalPartyTopologyRequest = Schemas['GenerateExternalPartyTopologyRequest'];
export type GenerateExternalPartyTopologyResponse = Schemas['GenerateExternalPartyTopologyResponse'];
export type AllocateExternalPartyRequest = Schemas['AllocateExternalPartyRequest'];
export type AllocateExternalPartyResponse = Schemas['AllocateExternalPartyResponse'];
/** 3.6 only (not in the 3.5 types): POST /v2/commands/completion-by-hash. */
export interface GetCompletionByHashResponse {
  acceptedCompletion?: Completion;
  lastRejectedCompletions?: Completion[];
}
/** 3.6 only: POST /v2/updates/update-by-hash. */
export interface GetUpdateByHashRequest {
  transactionHash: string;
  updateFormat: GetUpdateByIdRequest['updateFormat'];
}
export type ListPackagesResponse = Schemas['ListPackagesResponse'];
export type ListVettedPackagesRequest = Schemas['ListVettedPackagesRequest'];
export type ListVettedPackagesResponse = Schemas['ListVettedPackagesResponse'];
export type VettedPackages = Schemas['VettedPackages'];
export type VettedPackage = Schemas['VettedPackage'];
