import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CALL_COUNTERS } from './persistence/call-counters';

/** Call figures for the order stats, from the call counters (order, status, hour): no scan of the order's calls. */
@Injectable()
export class CallStatsService {
  constructor(private readonly ds: DataSource) {}

  /** Calls (dialing attempts) of the order created in [from, to). */
  async attempts(orderId: number, from: Date, to: Date): Promise<number> {
    // Counter ranges are inclusive: the last millisecond before `to`.
    return (await CALL_COUNTERS.stats(this.ds, { keys: { order_id: [orderId] }, from, to: new Date(to.getTime() - 1) })).total;
  }
}
