import { callEndsClaim } from './claim';

describe('callEndsClaim', () => {
  const live = { live: true, token: 't-1' };
  it('without a token, a call ends any claim of its lead, or none', () => {
    expect([callEndsClaim(undefined, live), callEndsClaim(null, { live: false, token: 't-1' }), callEndsClaim(undefined, undefined)]).toEqual([
      true,
      true,
      true,
    ]);
  });
  it("with a token, only when it is the lead's live claim", () => {
    expect(callEndsClaim('t-1', live)).toBe(true);
    expect(callEndsClaim('t-2', live)).toBe(false);
    expect(callEndsClaim('t-1', { live: false, token: 't-1' })).toBe(false);
    expect(callEndsClaim('t-1', undefined)).toBe(false);
  });
});
