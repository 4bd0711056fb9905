// A bounded cache of lookups with one request per key in flight. Archived contracts and
// transactions never change, so they stay until evicted; active contracts are re-checked on refresh.

export interface CachedLookup<T> {
  value: T;
  /** True when the ledger can no longer change it (archived contract, committed transaction). */
  final: boolean;
  fetchedAt: number;
}

export class LookupCache<T> {
  private readonly entries = new Map<string, CachedLookup<T>>();
  private readonly inFlight = new Map<string, Promise<CachedLookup<T>>>();

  constructor(private readonly maxEntries = 500) {}

  get size(): number {
    return this.entries.size;
  }

  peek(key: string): CachedLookup<T> | undefined {
    return this.entries.get(key);
  }

  /**
   * The cached value, or the result of `fetch` (shared by concurrent callers). `refresh` re-fetches
   * entries that can still change; final ones are kept.
   */
  async get(key: string, fetch: () => Promise<{ value: T; final: boolean }>, { refresh = false } = {}): Promise<CachedLookup<T>> {
    const hit = this.entries.get(key);
    if (hit && (!refresh || hit.final)) {
      // Re-insert: most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = fetch()
        .then(({ value, final }) => {
          const entry = { value, final, fetchedAt: Date.now() };
          this.entries.delete(key);
          this.entries.set(key, entry);
          while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
          return entry;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  clear(): void {
    this.entries.clear();
  }
}
