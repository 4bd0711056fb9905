// What each Canton error code of a command submission means and what to do next, in words, with
// where Canton defines it (a public file of github.com/digital-asset/canton). docs/commands.md lists
// the same codes with their bodies. Pure: no `vscode` import.
import * as l10n from '../l10n/l10n';

export interface CodeDescription {
  code: string;
  /** One line: what happened. */
  title: string;
  /** What to do next. */
  next: string;
  /** Where the code is defined, publicly. */
  source?: string;
  /** The node would give the same answer again: do not submit unchanged. */
  permanent: boolean;
}

const CANTON = 'https://github.com/digital-asset/canton/blob/main/community/';
const LAC = `${CANTON}ledger/ledger-api-core/src/main/scala/com/digitalasset/canton/ledger/error/groups/`;
const SOURCES = {
  commandExecution: `${LAC}CommandExecutionErrors.scala`,
  consistency: `${LAC}ConsistencyErrors.scala`,
  requestValidation: `${LAC}RequestValidationErrors.scala`,
  deduplication: `${CANTON}participant/src/main/scala/com/digitalasset/canton/participant/sync/CommandDeduplicationError.scala`,
  routing: `${CANTON}base/src/main/scala/com/digitalasset/canton/error/TransactionRoutingError.scala`,
  jsonApi: `${CANTON}ledger/ledger-api-core/src/main/scala/com/digitalasset/canton/ledger/error/JsonApiErrors.scala`,
  common: `${CANTON}ledger/ledger-api-core/src/main/scala/com/digitalasset/canton/ledger/error/CommonErrors.scala`,
  processor: `${CANTON}participant/src/main/scala/com/digitalasset/canton/participant/protocol/TransactionProcessor.scala`,
  // The value codec whose ujson failures the JSON layer's error handler (ledger-json-api/…/v2/Endpoints.scala) answers as 500.
  jsonCodec: `${CANTON}transcode/codec-json/src/main/scala/com/digitalasset/transcode/codec/json/JsonCodec.scala`,
};

type Entry = Omit<CodeDescription, 'code'>;

function table(): Record<string, Entry> {
  return {
    DAML_FAILURE: {
      title: l10n.t('The Daml code failed: an assertion, an error or an exception nobody caught.'),
      next: l10n.t('Read the error id and message, fix the arguments (or the Daml code at the choice named), then submit with a new command id.'),
      source: SOURCES.commandExecution,
      permanent: true,
    },
    UNHANDLED_EXCEPTION: {
      title: l10n.t('The Daml code threw an exception nobody caught.'),
      next: l10n.t('Fix the arguments or catch the exception in the Daml code, then submit again.'),
      source: SOURCES.commandExecution,
      permanent: true,
    },
    INTERPRETATION_USER_ERROR: {
      title: l10n.t('The Daml code called abort or error.'),
      next: l10n.t('Read the message; fix the arguments or the Daml code, then submit again.'),
      source: SOURCES.commandExecution,
      permanent: true,
    },
    TEMPLATE_PRECONDITION_VIOLATED: {
      title: l10n.t("A contract's ensure clause does not hold for the arguments given."),
      next: l10n.t("Change the create arguments so that the template's ensure holds (see the template below)."),
      source: SOURCES.commandExecution,
      permanent: true,
    },
    DAML_AUTHORIZATION_ERROR: {
      title: l10n.t('The acting parties do not authorize what the commands do.'),
      next: l10n.t("Act as the parties the error names (a create needs every signatory, an exercise the choice's controllers)."),
      source: SOURCES.commandExecution,
      permanent: true,
    },
    CONTRACT_NOT_FOUND: {
      title: l10n.t('The contract does not exist, is archived, or is not visible to the acting and reading parties.'),
      next: l10n.t('Pick an active contract of the template (Active Contracts), or read as a stakeholder of it.'),
      source: SOURCES.consistency,
      permanent: true,
    },
    CONTRACT_NOT_ACTIVE: {
      title: l10n.t('The commands use a contract that they archived earlier in the same transaction.'),
      next: l10n.t('Use the contract before the choice that consumes it, or the one it created.'),
      source: SOURCES.commandExecution,
      permanent: true,
    },
    TEMPLATES_OR_INTERFACES_NOT_FOUND: {
      title: l10n.t('The node has no such template: the package is not uploaded, or the module or template name is wrong.'),
      next: l10n.t('Upload the DAR (Canton: Upload DAR), or use #package-name instead of a package id.'),
      source: SOURCES.requestValidation,
      permanent: true,
    },
    JSON_API_PACKAGE_SELECTION_FAILED: {
      title: l10n.t('The node found no vetted package of that name for the acting party.'),
      next: l10n.t('Upload and vet the DAR on a synchronizer the party is hosted on (Packages in the node tree shows what is vetted).'),
      source: SOURCES.jsonApi,
      permanent: true,
    },
    PACKAGE_SELECTION_FAILED: {
      title: l10n.t('No synchronizer satisfies the vetting requirements of the command.'),
      next: l10n.t('Vet the package on the synchronizers of every party involved.'),
      source: SOURCES.commandExecution,
      permanent: true,
    },
    PACKAGE_NOT_VETTED_BY_RECIPIENTS: {
      title: l10n.t('A participant of the transaction has not vetted a package it uses.'),
      next: l10n.t('Have every involved participant upload and vet the DAR, then submit with a new command id.'),
      source: SOURCES.processor,
      permanent: true,
    },
    PACKAGE_NOT_FOUND: {
      title: l10n.t('The node does not have a package the command needs.'),
      next: l10n.t('Upload the DAR (Canton: Upload DAR).'),
      source: SOURCES.requestValidation,
      permanent: true,
    },
    COMMAND_PREPROCESSING_FAILED: {
      title: l10n.t('An argument does not match the Daml type: a field is missing or has the wrong type.'),
      next: l10n.t('Give every field of the Daml record (completion in the request file lists them), then submit again.'),
      source: SOURCES.commandExecution,
      permanent: true,
    },
    DUPLICATE_COMMAND: {
      title: l10n.t('A command with this command id was already accepted within the deduplication period.'),
      next: l10n.t('If this was a retry, the earlier one committed: nothing to do. For a new change, submit with a new command id.'),
      source: SOURCES.deduplication,
      permanent: true,
    },
    SUBMISSION_ALREADY_IN_FLIGHT: {
      title: l10n.t('The same command is still being processed.'),
      next: l10n.t('Wait for its outcome (Find Outcome) before submitting it again.'),
      source: SOURCES.consistency,
      permanent: false,
    },
    INVALID_DEDUPLICATION_PERIOD: {
      title: l10n.t('The deduplication period starts before what the node still remembers.'),
      next: l10n.t('Use a shorter deduplication duration, or an offset after the earliest offset the error names.'),
      source: SOURCES.deduplication,
      permanent: true,
    },
    UNKNOWN_SUBMITTERS: {
      title: l10n.t('No synchronizer the node is connected to knows the acting parties.'),
      next: l10n.t('Act as parties hosted on this participant (the node tree lists them).'),
      source: SOURCES.routing,
      permanent: true,
    },
    NO_SYNCHRONIZER_FOR_SUBMISSION: {
      title: l10n.t('No synchronizer can take the transaction.'),
      next: l10n.t('Check that every party involved is hosted on a synchronizer the node is connected to.'),
      source: SOURCES.routing,
      permanent: true,
    },
    NOT_SEQUENCED_TIMEOUT: {
      title: l10n.t('The synchronizer did not order the transaction in time; nothing committed.'),
      next: l10n.t('Submit again: with the same command id the node deduplicates.'),
      source: SOURCES.processor,
      permanent: false,
    },
    REQUEST_TIME_OUT: {
      title: l10n.t('The node stopped waiting for the outcome; the command may still commit.'),
      next: l10n.t('Find Outcome looks the command id up in the completions; submit again only with the same command id.'),
      source: SOURCES.common,
      permanent: false,
    },
    LEDGER_API_INTERNAL_ERROR: {
      title: l10n.t(
        "The node failed inside (500) and withheld the cause. For commands this usually means an argument value of the wrong JSON type for its Daml type (a number for a Text, Party or Int64, a single value for a list, a list for a record), which Canton's JSON layer does not report field by field.",
      ),
      next: l10n.t(
        'Check the argument types before sending again: Text, Party, Int64 (on Canton 3.5 and later) and Numeric are written as JSON strings, like "10"; lists as arrays; records as objects. The review names the field when it knows the package (from the node, or the Daml source in the workspace). If the arguments are right, ask the node\'s operator for the log entry of the correlation id.',
      ),
      source: SOURCES.jsonCodec,
      permanent: false,
    },
    MISSING_FIELD: {
      title: l10n.t('A required field is missing.'),
      next: l10n.t('Add the field the cause names.'),
      source: SOURCES.requestValidation,
      permanent: true,
    },
    INVALID_FIELD: {
      title: l10n.t('A field has a value the node does not accept.'),
      next: l10n.t('Fix the field the cause names.'),
      source: SOURCES.requestValidation,
      permanent: true,
    },
    INVALID_ARGUMENT: {
      title: l10n.t('The node cannot use the request as it is.'),
      next: l10n.t('Fix what the cause names.'),
      source: SOURCES.requestValidation,
      permanent: true,
    },
    NA: {
      title: l10n.t('The node refused the token (the details are withheld for security).'),
      next: l10n.t("Check that the token's user may act as every actAs party and read as every readAs party (the node tree lists the rights)."),
      permanent: true,
    },
  };
}

/** By category, for codes not in the table (Canton's ErrorCategory). */
function byCategory(category: number | undefined): Entry {
  if (category === 1 || category === 2 || category === 3)
    return { title: l10n.t('A transient failure or contention.'), next: l10n.t('Find Outcome, then submit again with the same command id.'), permanent: false };
  if (category === 8 || category === 9 || category === 11 || category === 10)
    return { title: l10n.t('The node rejected the command.'), next: l10n.t('Read the cause, fix the request, and submit again.'), permanent: true };
  return { title: l10n.t('The node reported an error.'), next: l10n.t('Read the cause and what the node said below.'), permanent: false };
}

export function describeCode(code: string | undefined, category: number | undefined): CodeDescription {
  const entry = (code ? table()[code] : undefined) ?? byCategory(category);
  return { code: code ?? '', ...entry };
}

/** The codes described, for the docs test. */
export const DESCRIBED_CODES = (): string[] => Object.keys(table());
