// The free text the seeded ledger holds (notes, memos, labels) and the small value helpers its
// transactions share. Tests get HOSTILE_STRINGS, which try to break a renderer; the demo ledger
// (`hostile: false`) gets believable text in the same places, so its ids and shapes stay the same.
import { HOSTILE_STRINGS } from './storedLedger';

/** What a bank's back office writes in notes and memos: one for each of HOSTILE_STRINGS. */
export const BELIEVABLE_STRINGS = [
  'Welcome to your Iou account',
  'Delivery versus payment, two legs',
  'https://bank.example/notes/welcome',
  'Settlement of the November trades',
  'Split for the second leg',
  'Reviewed by operations',
  'Ledger entry recorded',
];

/** The seeded ledger's free text: the hostile strings for tests, believable ones for the demo. */
export function seededTexts(hostile: boolean): { strings: readonly string[]; noteCommandId: string; noteWorkflowId: string } {
  return hostile
    ? { strings: HOSTILE_STRINGS, noteCommandId: 'notes-<script>-1', noteWorkflowId: '<b>workflow</b>' }
    : { strings: BELIEVABLE_STRINGS, noteCommandId: 'notes-welcome-1', noteWorkflowId: 'onboarding-notes' };
}

/** A value nested `depth` records deep, ending in a link to `leafLink`. */
export function nested(depth: number, leafLink: string): unknown {
  let v: unknown = { leaf: 'bottom', link: leafLink };
  for (let i = depth; i > 0; i--) v = { level: i, child: v };
  return v;
}

/** ISO instant with 6 fraction digits, as the JSON API prints them. */
export function micros(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1417Z');
}
