/**
 * The lead bodies the create benches send, as arrivals are: phones spread over the number space (no hot right edge in the phone index),
 * every tenth repeating the phone five leads before (a duplicate to link; `duplicates: false` for none). `sent()` counts bodies made.
 */
export function benchLeads(order: { id: number; code: string }, options: { duplicates?: boolean } = {}) {
  const duplicates = options.duplicates ?? true;
  let seq = 0;
  const phone = () => {
    const n = seq++;
    const k = duplicates && n % 10 === 9 ? n - 5 : n;
    return `+7916${String(1_000_000 + ((k * 7_919) % 8_999_999)).padStart(7, '0')}`;
  };
  return {
    lead: () => ({ leadType: 'straight', phone: phone(), orderId: order.id, orderCode: order.code, name: 'Bench' }),
    sent: () => seq,
  };
}
