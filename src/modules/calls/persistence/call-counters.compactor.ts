import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CounterCompactor } from '../../../database/counters/counter-compactor';
import { CALL_COUNTERS, CALL_USER_COUNTERS } from './call-counters';

/** Folds the call counters' deltas every second (see CounterCompactor). */
@Injectable()
export class CallCountersCompactor extends CounterCompactor {
  constructor(ds: DataSource) {
    super(ds, [CALL_COUNTERS, CALL_USER_COUNTERS], new Logger('CallCounters'));
  }
}
