import { Cache } from './cache';

describe('Cache', () => {
  it('serves an entry for its lifetime, then misses', async () => {
    const cache = new Cache<number, string>({ ttlMs: 100, max: 10 });
    cache.set(1, 'a');
    expect(cache.get(1)).toBe('a');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(cache.get(1)).toBeUndefined();
  });

  it('keeps at most `max` entries, dropping the least recently used', () => {
    const cache = new Cache<number, string>({ ttlMs: 60_000, max: 2 });
    cache.set(1, 'a');
    cache.set(2, 'b');
    expect(cache.get(1)).toBe('a');
    cache.set(3, 'c');
    expect([cache.get(1), cache.get(2), cache.get(3)]).toEqual(['a', undefined, 'c']);
  });

  it('is off with a lifetime of 0: every read misses', () => {
    const cache = new Cache<number, string>({ ttlMs: 0, max: 10 });
    cache.set(1, 'a');
    expect(cache.get(1)).toBeUndefined();
  });

  it('getOrLoad loads once while cached and does not cache a miss', async () => {
    const cache = new Cache<number, string>({ ttlMs: 60_000, max: 10 });
    const load = jest.fn(() => Promise.resolve('a'));
    expect(await cache.getOrLoad(1, load)).toBe('a');
    expect(await cache.getOrLoad(1, load)).toBe('a');
    expect(load).toHaveBeenCalledTimes(1);
    const missing = jest.fn(() => Promise.resolve(undefined));
    await cache.getOrLoad(2, missing);
    await cache.getOrLoad(2, missing);
    expect(missing).toHaveBeenCalledTimes(2);
  });

  it('delete and clear forget entries at once', () => {
    const cache = new Cache<number, string>({ ttlMs: 60_000, max: 10 });
    cache.set(1, 'a');
    cache.set(2, 'b');
    cache.delete(1);
    expect(cache.get(1)).toBeUndefined();
    cache.clear();
    expect(cache.get(2)).toBeUndefined();
  });
});
