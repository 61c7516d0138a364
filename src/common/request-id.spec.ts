import fc from 'fast-check';
import { requestIdFrom } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdFrom', () => {
  it.each(['abc', 'req-42', 'a.b:c_d-e', '0f8fad5b-d9cb-469f-a165-70867728950e', 'x'.repeat(128)])('keeps the sane id %s', (id) => {
    expect(requestIdFrom(id)).toBe(id);
  });

  it('takes the first of repeated headers', () => {
    expect(requestIdFrom(['first', 'second'])).toBe('first');
  });

  it.each([undefined, '', ' ', 'has space', 'line\nbreak', 'x'.repeat(129), 'naïve', 42, null])('replaces %p with a new UUID', (value) => {
    expect(requestIdFrom(value)).toMatch(UUID);
  });

  it('never returns anything that could break a log line', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        expect(requestIdFrom(s)).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      }),
    );
  });
});
