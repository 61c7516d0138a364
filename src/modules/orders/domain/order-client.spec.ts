import { UNRESTRICTED } from '../../../common/auth-context';
import { orderClientOf } from './order-client';

describe('orderClientOf', () => {
  it('stores what an unrestricted key sends, null included, and nothing when it sends nothing', () => {
    expect(orderClientOf(UNRESTRICTED, 4, true)).toEqual({ ok: true, value: 4 });
    expect(orderClientOf(UNRESTRICTED, null, false)).toEqual({ ok: true, value: null });
    expect(orderClientOf(UNRESTRICTED, undefined, true)).toEqual({ ok: true, value: undefined });
  });

  it("gives a client key's creates its client and accepts its own id", () => {
    expect(orderClientOf({ clientId: 2 }, undefined, true)).toEqual({ ok: true, value: 2 });
    expect(orderClientOf({ clientId: 2 }, 2, true)).toEqual({ ok: true, value: 2 });
    expect(orderClientOf({ clientId: 2 }, undefined, false)).toEqual({ ok: true, value: undefined });
    expect(orderClientOf({ clientId: 2 }, 2, false)).toEqual({ ok: true, value: 2 });
  });

  it('refuses a client key any other client, and null, naming clientId', () => {
    for (const sent of [3, null]) {
      for (const creating of [true, false]) {
        const r = orderClientOf({ clientId: 2 }, sent, creating);
        expect(r).toEqual({ ok: false, error: { field: 'clientId', message: expect.stringContaining('send 2') } });
      }
    }
  });
});
