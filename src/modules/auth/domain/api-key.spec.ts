import { clientKeyScopeErrors, generateApiKey, hashApiKey, hashesEqual, keyPrefix, parseScopes } from './api-key';

describe('api keys', () => {
  it('generates distinct, prefixed keys', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a).not.toEqual(b);
    expect(a).toMatch(/^cck_[A-Za-z0-9_-]{43}$/);
    expect(keyPrefix(a)).toHaveLength(12);
  });
  it('compares hashes in constant time and exactly', () => {
    const k = generateApiKey();
    expect(hashesEqual(hashApiKey(k), hashApiKey(k))).toBe(true);
    expect(hashesEqual(hashApiKey(k), hashApiKey(k + 'x'))).toBe(false);
    expect(hashesEqual(hashApiKey(k), 'abcd')).toBe(false);
  });
  it('parses scopes', () => {
    expect(parseScopes('api, admin,api')).toEqual(['api', 'admin']);
    expect(() => parseScopes('api,root')).toThrow(/root/);
    expect(() => parseScopes('')).toThrow();
  });
  it('gives a client key the api scope only', () => {
    expect(clientKeyScopeErrors(['api'], 2)).toEqual([]);
    expect(clientKeyScopeErrors(['api', 'admin', 'telephony'], null)).toEqual([]);
    expect(clientKeyScopeErrors(['api', 'admin', 'telephony'], 2)).toEqual([{ field: 'scopes', message: expect.stringContaining('admin, telephony') }]);
    expect(clientKeyScopeErrors(['telephony'], 2)).toHaveLength(1);
  });
});
