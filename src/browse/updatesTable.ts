// The rows of the Follow Updates page: a bounded buffer, oldest first (the newest beyond the
// capacity push the oldest out, counted), and the view of those that pass the party and template or
// choice filters. Used by the page script; no DOM, no `vscode`.
import type { UpdateRow } from '../protocol/updateRows';

export const TAIL_CAPACITY = 20_000;

export class UpdateRows {
  private rows: UpdateRow[] = [];
  private shown: UpdateRow[] = this.rows;
  private party = '';
  private template = '';
  /** Rows dropped to keep the buffer bounded, and rows received since the last reset. */
  dropped = 0;
  received = 0;

  constructor(private readonly capacity = TAIL_CAPACITY) {}

  /** The rows that pass the filters, oldest first. */
  get view(): readonly UpdateRow[] {
    return this.shown;
  }
  get kept(): number {
    return this.rows.length;
  }
  get filtered(): boolean {
    return this.shown !== this.rows;
  }
  offsets(): number[] {
    return this.rows.map((r) => r.offset);
  }

  reset(): void {
    this.rows = [];
    this.shown = this.rows;
    this.dropped = 0;
    this.received = 0;
  }

  /** Filters by party and by template or choice (each a part of the name, any case). */
  filter(party: string, template: string): void {
    this.party = party.trim().toLowerCase();
    this.template = template.trim().toLowerCase();
    this.shown = this.party || this.template ? this.rows.filter((r) => this.matches(r)) : this.rows;
  }

  /**
   * Adds new rows (newer than all kept). Returns how many joined the view, and `rebuilt` when the
   * oldest were dropped (the view is another list then, its newest rows the same).
   */
  add(fresh: readonly UpdateRow[]): { added: number; rebuilt: boolean } {
    this.received += fresh.length;
    const before = this.shown.length;
    for (const r of fresh) this.rows.push(r);
    if (this.filtered) for (const r of fresh) if (this.matches(r)) this.shown.push(r);
    const added = this.shown.length - before;
    // Some slack, so the buffer is cut now and then rather than on every batch.
    if (this.rows.length > this.capacity * 1.1) {
      const over = this.rows.length - this.capacity;
      this.rows.splice(0, over);
      this.dropped += over;
      this.shown = this.party || this.template ? this.rows.filter((r) => this.matches(r)) : this.rows;
      return { added: Math.min(added, this.shown.length), rebuilt: true };
    }
    return { added, rebuilt: false };
  }

  matches(r: UpdateRow): boolean {
    const has = (list: readonly string[], part: string) => list.some((x) => x.toLowerCase().includes(part));
    return (!this.party || has(r.parties, this.party)) && (!this.template || has(r.templates, this.template) || has(r.choices, this.template));
  }
}
