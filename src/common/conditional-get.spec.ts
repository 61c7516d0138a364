import { withoutNoCache } from './conditional-get';

describe('withoutNoCache', () => {
  it.each([
    ['no-cache', undefined],
    ['No-Cache', undefined],
    ['no-cache, max-age=0', 'max-age=0'],
    ['max-age=0,no-cache', 'max-age=0'],
    ['no-store , no-cache', 'no-store'],
    ['max-age=0', 'max-age=0'],
    ['no-cache-please', 'no-cache-please'],
    [' , ', undefined],
  ])('%p keeps %p', (header, kept) => {
    expect(withoutNoCache(header)).toBe(kept);
  });
});
