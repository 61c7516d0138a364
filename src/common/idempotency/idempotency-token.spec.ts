import fc from 'fast-check';
import { idempotencyToken } from './idempotency-token';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idempotencyToken', () => {
  it('is a version-5-shaped UUID, the same for the same request and different for any other', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.string({ minLength: 1, maxLength: 255 }),
        fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }),
        (apiKeyId, key, hash) => {
          const token = idempotencyToken(apiKeyId, key, hash);
          expect(token).toMatch(UUID);
          expect(idempotencyToken(apiKeyId, key, hash)).toBe(token);
          expect(idempotencyToken(apiKeyId + 1, key, hash)).not.toBe(token);
          expect(idempotencyToken(apiKeyId, `${key}x`, hash)).not.toBe(token);
        },
      ),
    );
  });
});
