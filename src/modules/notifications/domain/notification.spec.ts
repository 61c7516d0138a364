import fc from 'fast-check';
import {
  chunk,
  describeError,
  emailSubject,
  isFinalAttempt,
  LAST_ERROR_MAX_LENGTH,
  messengerMessage,
  NOT_CONFIGURED,
  plannedDeliveries,
  wantsChannel,
} from './notification';

describe('wantsChannel', () => {
  const on = { enabled: true, priority: null, address: 'a@example.com' } as const;

  it('delivers everything when enabled without a priority filter', () => {
    expect(wantsChannel(on, 'default')).toBe(true);
    expect(wantsChannel(on, 'urgent')).toBe(true);
  });
  it('delivers nothing when the channel is off', () => {
    expect(wantsChannel({ ...on, enabled: false }, 'urgent')).toBe(false);
  });
  it('urgent priority lets only urgent notifications through', () => {
    expect(wantsChannel({ ...on, priority: 'urgent' }, 'default')).toBe(false);
    expect(wantsChannel({ ...on, priority: 'urgent' }, 'urgent')).toBe(true);
  });
  it('needs an address (e.g. a messenger chat id)', () => {
    expect(wantsChannel({ ...on, address: null }, 'urgent')).toBe(false);
    expect(wantsChannel({ ...on, address: '  ' }, 'urgent')).toBe(false);
  });
  it('an urgent notification reaches at least everyone a default one reaches', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.constantFrom('urgent' as const, null), fc.option(fc.string()), (enabled, priority, address) => {
        const pref = { enabled, priority, address };
        if (wantsChannel(pref, 'default')) expect(wantsChannel(pref, 'urgent')).toBe(true);
      }),
    );
  });
});

describe('isFinalAttempt', () => {
  it('is the attempt whose retry count reached the limit', () => {
    expect(isFinalAttempt(0, 0)).toBe(true);
    expect(isFinalAttempt(0, 5)).toBe(false);
    expect(isFinalAttempt(4, 5)).toBe(false);
    expect(isFinalAttempt(5, 5)).toBe(true);
  });
});

describe('wording', () => {
  const n = { type: 'urgent' as const, level: 'danger' as const, title: 'Queue overflow', text: '120 leads waiting' };
  it('marks urgent e-mails in the subject', () => {
    expect(emailSubject(n)).toBe('[URGENT] Queue overflow');
    expect(emailSubject({ ...n, type: 'default' })).toBe('Queue overflow');
  });
  it('builds the messenger message', () => {
    expect(messengerMessage('12345', 7, n)).toEqual({
      chatId: '12345',
      text: 'Queue overflow\n\n120 leads waiting',
      urgent: true,
      level: 'danger',
      notificationId: 7,
    });
  });
});

describe('describeError', () => {
  it('keeps one bounded, non-empty line', () => {
    expect(describeError(new Error('HTTP 500\nInternal'))).toBe('HTTP 500 Internal');
    expect(describeError(new Error(''))).toBe('unknown error');
    expect(describeError(undefined)).toBe('unknown error');
    expect(describeError('x'.repeat(5000))).toHaveLength(LAST_ERROR_MAX_LENGTH);
  });
});

describe('chunk', () => {
  it('splits in order into pieces of at most size, losing nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: 1, max: 20 }), (items, size) => {
        const parts = chunk(items, size);
        expect(parts.flat()).toEqual(items);
        expect(parts.every((p) => p.length >= 1 && p.length <= size)).toBe(true);
        expect(parts.slice(0, -1).every((p) => p.length === size)).toBe(true);
      }),
    );
  });
  it('rejects a size below 1', () => {
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });
});

describe('plannedDeliveries', () => {
  const pref = (address: string | null) => ({ enabled: true, priority: null, address });
  const both = { email: true, messenger: true };

  it('gives every recipient an inbox row and active ones the external channels they want, by user and channel name', () => {
    const rows = plannedDeliveries(
      [
        { id: 9, isActive: true, email: pref('b@example.com'), messenger: pref(null) },
        { id: 3, isActive: true, email: pref('a@example.com'), messenger: pref('42') },
        { id: 5, isActive: false, email: pref('c@example.com'), messenger: pref('43') },
      ],
      'default',
      both,
    );
    expect(rows.map((r) => [r.userId, r.channel, r.status, r.address])).toEqual([
      [3, 'email', 'pending', 'a@example.com'],
      [3, 'inbox', 'delivered', null],
      [3, 'messenger', 'pending', '42'],
      [5, 'inbox', 'delivered', null],
      [9, 'email', 'pending', 'b@example.com'],
      [9, 'inbox', 'delivered', null],
    ]);
  });

  it('stores the rows of a channel not configured here as skipped, saying why', () => {
    const [email] = plannedDeliveries([{ id: 1, isActive: true, email: pref('a@example.com'), messenger: pref(null) }], 'urgent', {
      email: false,
      messenger: true,
    });
    expect(email).toEqual({ userId: 1, channel: 'email', status: 'skipped', address: 'a@example.com', lastError: NOT_CONFIGURED.email });
  });
});
