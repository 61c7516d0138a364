import { LRUCache } from 'lru-cache';

export interface CacheOptions {
  /** How long an entry may be served; 0 turns the cache off (every read misses, writes are dropped). */
  ttlMs: number;
  /** At most this many entries; the least recently used go first. */
  max: number;
}

/**
 * A per-instance cache bounded in size and lifetime (lru-cache), the one every service caching reference data uses. The
 * lifetime comes from config through the owning service; other instances see a change within `ttlMs`, while the instance
 * that makes it deletes the entry (or clears) at once.
 */
export class Cache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly lru: LRUCache<K, V> | null;

  constructor({ ttlMs, max }: CacheOptions) {
    this.lru = ttlMs > 0 ? new LRUCache<K, V>({ max, ttl: ttlMs }) : null;
  }

  get(key: K): V | undefined {
    return this.lru?.get(key);
  }

  set(key: K, value: V): void {
    this.lru?.set(key, value);
  }

  delete(key: K): void {
    this.lru?.delete(key);
  }

  clear(): void {
    this.lru?.clear();
  }

  /** The cached value, or `load()`'s (cached when it is not undefined). */
  async getOrLoad(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    if (value !== undefined) this.set(key, value);
    return value;
  }
}
