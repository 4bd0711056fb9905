// The rows of the Active Contracts page, as the batches brought them (columns and the read's
// dictionary), with search and sort over them. A row is an index: nothing is built per row when it
// arrives, its cells are read when it is painted, its lower-case text (and its id, sent as base64)
// when it is first searched.
// Used by the page script; no DOM, no `vscode`.
import { argumentFields, argumentValue, base64ToHex, keyText, withParties, type AcsBatch } from '../protocol/acsRows';

export type AcsSort = '' | 'asc' | 'desc';

export class AcsRows {
  private words: string[] = [];
  private ids: string[] = [];
  /** The rows whose id is still base64 (hex as it is read). */
  private encodedIds: boolean[] = [];
  private created: string[] = [];
  private templateWords: number[] = [];
  private packageWords: number[] = [];
  private signatoryWords: number[] = [];
  private observerWords: number[] = [];
  private shapeWords: number[] = [];
  private args: string[] = [];
  private lowered: (string | undefined)[] = [];
  private keys = new Map<number, string>();
  private cutFields = new Map<number, [string, string][]>();
  private lists = new Map<number, string[]>();
  private shapes = new Map<number, string[] | undefined>();

  get count(): number {
    return this.ids.length;
  }

  /** Forgets the rows; `keepWords` keeps the dictionary (the same read started again). */
  clear(keepWords = false): void {
    if (!keepWords) this.words = [];
    this.ids = [];
    this.encodedIds = [];
    this.created = [];
    this.templateWords = [];
    this.packageWords = [];
    this.signatoryWords = [];
    this.observerWords = [];
    this.shapeWords = [];
    this.args = [];
    this.lowered = [];
    this.keys = new Map();
    this.cutFields = new Map();
    if (!keepWords) {
      this.lists = new Map();
      this.shapes = new Map();
    }
  }

  /** Appends a batch; returns the index of its first row. */
  append(batch: AcsBatch): number {
    const first = this.ids.length;
    for (const w of batch.words) this.words.push(w);
    for (let i = 0; i < batch.ids.length; i++) {
      this.ids.push(batch.ids[i]);
      this.encodedIds.push(batch.hexIds);
      this.created.push(batch.createdAt[i]);
      this.templateWords.push(batch.templates[i]);
      this.packageWords.push(batch.packages[i]);
      this.signatoryWords.push(batch.signatories[i]);
      this.observerWords.push(batch.observers[i]);
      this.shapeWords.push(batch.shapes[i]);
      this.args.push(batch.args[i]);
    }
    batch.keyRows.forEach((row, i) => this.keys.set(first + row, batch.keys[i]));
    batch.fieldRows.forEach((row, i) => this.cutFields.set(first + row, batch.fields[i]));
    return first;
  }

  contractId(row: number): string {
    if (this.encodedIds[row]) {
      this.ids[row] = base64ToHex(this.ids[row]);
      this.encodedIds[row] = false;
    }
    return this.ids[row] ?? '';
  }
  createdAt(row: number): string {
    return this.created[row] ?? '';
  }
  templateId(row: number): string {
    return this.words[this.templateWords[row]] ?? '';
  }
  /** The template's word number: the same number, the same template. */
  templateWord(row: number): number {
    return this.templateWords[row];
  }
  packageName(row: number): string {
    return this.words[this.packageWords[row]] ?? '';
  }
  signatories(row: number): string[] {
    return this.list(this.signatoryWords[row]);
  }
  observers(row: number): string[] {
    return this.list(this.observerWords[row]);
  }
  key(row: number): string {
    const sent = this.keys.get(row);
    return sent === undefined ? '' : keyText(sent, this.words);
  }

  /** The first fields of the row's argument, read from its text now (the row is being painted). */
  fields(row: number): [string, string][] {
    return this.cutFields.get(row) ?? argumentFields(this.argument(row), this.signatories(row));
  }

  /** The row's create argument (undefined: cut, too long to send whole). */
  argument(row: number): unknown {
    return argumentValue(this.shape(row), this.args[row] ?? '', this.words);
  }

  /**
   * The rows from `from` on that hold `query` (lower case): in the argument, the contract id, the
   * template id, a party or the key.
   */
  matching(query: string, from = 0): number[] {
    const out: number[] = [];
    this.matchSome(query, [], from, this.ids.length - from, out);
    return out;
  }

  /**
   * Tests at most `count` rows from `from` on for `query`, pushing those that hold it onto `out`;
   * returns where it stopped. `hits` (one per dictionary word, filled as the dictionary grows) is
   * kept by the caller across the slices of one search.
   */
  matchSome(query: string, hits: boolean[], from: number, count: number, out: number[]): number {
    for (let w = hits.length; w < this.words.length; w++) hits.push(this.words[w].toLowerCase().includes(query));
    const end = Math.min(this.ids.length, from + count);
    for (let row = from; row < end; row++) {
      if (
        hits[this.templateWords[row]] ||
        hits[this.signatoryWords[row]] ||
        hits[this.observerWords[row]] ||
        this.contractId(row).includes(query) ||
        this.searchText(row).includes(query) ||
        (this.keys.has(row) && this.key(row).toLowerCase().includes(query))
      )
        out.push(row);
    }
    return end;
  }

  /** Makes the search text of rows from `from` on, at most `count` of them (while the page is idle); returns where it stopped. */
  prepareSearch(from: number, count: number): number {
    const end = Math.min(this.ids.length, from + count);
    for (let row = from; row < end; row++) {
      this.searchText(row);
      this.contractId(row);
    }
    return end;
  }

  /** The row's argument in lower case, made when first searched. */
  private searchText(row: number): string {
    if (this.lowered[row] === undefined) {
      // The JSON as the node sent it (a cut one as it is): a search for `"owner":"alice` finds it.
      const whole = this.shape(row) && !this.cutFields.has(row) ? JSON.stringify(this.argument(row)) : withParties(this.args[row] ?? '', this.words);
      this.lowered[row] = whole.toLowerCase();
    }
    return this.lowered[row];
  }

  /** `rows` ordered by creation time (a stable sort: rows created together keep the node's order). */
  sort(rows: number[], order: AcsSort): number[] {
    if (!order) return rows;
    const sign = order === 'desc' ? -1 : 1;
    const c = this.created;
    return rows.sort((a, b) => (c[a] < c[b] ? -sign : c[a] > c[b] ? sign : 0));
  }

  /** The field names of the row's argument, when it came as its values. */
  private shape(row: number): string[] | undefined {
    const word = this.shapeWords[row];
    if (!this.shapes.has(word)) {
      let names: unknown;
      try {
        names = JSON.parse(this.words[word] || 'null');
      } catch {
        names = undefined;
      }
      this.shapes.set(word, Array.isArray(names) ? names.map(String) : undefined);
    }
    return this.shapes.get(word);
  }

  private list(word: number): string[] {
    let l = this.lists.get(word);
    if (!l) {
      const text = this.words[word] ?? '';
      l = text ? text.split('\n') : [];
      this.lists.set(word, l);
    }
    return l;
  }
}
