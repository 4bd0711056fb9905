// Whether a failed submission was definitely refused by the node, or its outcome is unknown.
// "Not accepted" invites a fresh submission; said wrongly, it invites a double submission. So a
// failure is a definite rejection only when the node itself said so (docs/execute.md):
// - a JsCantonError with `definiteAnswer: true`, or of a category that means the request itself
//   was refused before anything ran (Canton's ErrorCategory.scala, docs/ledger-api.md#errors: 6 authentication,
//   7 permission, 8 invalid, 9 failed precondition, 10 already exists, 11 not found, 12 out of
//   range, 14 unimplemented; redacted 401/403 bodies are categories 6 and 7);
// - a text/plain 400 of the JSON layer ("Invalid value for: …"): the body was never decoded;
// - a 404 or 405 without a Canton error: the node has no such route, nothing ran.
// Anything else (an HTML page, a proxy's 502/503/504, a body cut short, a timeout, a dropped
// connection, categories 1 transient, 2 contention, 3 deadline, 4 internal, 13, a 5xx) is unknown.
import type { LedgerApiError } from '../ledger/ledgerApiError';
import * as l10n from '../l10n/l10n';

const DEFINITE_CATEGORIES = new Set([6, 7, 8, 9, 10, 11, 12, 14]);

export interface FailureVerdict {
  /** The node definitely did not accept the request: nothing will commit from it. */
  definite: boolean;
  /** Why, in a sentence. */
  reason: string;
}

export function judgeFailure(e: LedgerApiError): FailureVerdict {
  const c = e.cantonError;
  if (c) {
    if (c.definiteAnswer === true) return { definite: true, reason: l10n.t('The node gave a definite answer: the request was rejected.') };
    if (c.errorCategory === -1 && (e.status === 401 || e.status === 403)) {
      return { definite: true, reason: l10n.t('The node refused the request before running it (HTTP {0}).', e.status) };
    }
    if (DEFINITE_CATEGORIES.has(c.errorCategory)) {
      return { definite: true, reason: l10n.t('The node refused the request (error category {0}).', c.errorCategory) };
    }
    return {
      definite: false,
      reason: l10n.t('The node answered with an error of category {0}, which does not say whether the submission will still commit.', c.errorCategory),
    };
  }
  if (e.status === 400 && e.plainText !== undefined && /^Invalid value for: /.test(e.plainText)) {
    return { definite: true, reason: l10n.t('The node could not decode the request, so it never ran it.') };
  }
  if ((e.status === 404 && e.routeMissing) || e.status === 405) {
    return { definite: true, reason: l10n.t('The node has no such endpoint, so nothing ran.') };
  }
  switch (e.kind) {
    case 'timeout':
      return { definite: false, reason: l10n.t('No answer in time.') };
    case 'network':
      return { definite: false, reason: l10n.t('The connection failed or dropped.') };
    case 'cancelled':
      return { definite: false, reason: l10n.t('The request was cancelled after it was sent.') };
    default:
      return {
        definite: false,
        reason: e.status
          ? l10n.t('The answer (HTTP {0}) is not a Canton error from the node: a proxy or a failing node may have sent it.', e.status)
          : l10n.t('The answer is not a Canton error from the node.'),
      };
  }
}

/** What to do before submitting again when the outcome is unknown. */
export function unknownOutcomeAdvice(submissionId: string): string {
  return l10n.t(
    "The submission may still commit. Before submitting again, look for submission id {0} in the completions of the user (or the update stream), and wait until the prepared transaction's max record time has passed; only then submit again, with a new submission id.",
    submissionId,
  );
}
