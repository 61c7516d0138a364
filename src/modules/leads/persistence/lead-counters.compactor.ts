import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CounterCompactor } from '../../../database/counters/counter-compactor';
import { LEAD_COUNTERS } from './lead-counters';

/** Folds the lead counters' deltas every second (see CounterCompactor): the exact `total` of GET /v2/lead/. */
@Injectable()
export class LeadCountersCompactor extends CounterCompactor {
  constructor(ds: DataSource) {
    super(ds, [LEAD_COUNTERS], new Logger('LeadCounters'));
  }
}
