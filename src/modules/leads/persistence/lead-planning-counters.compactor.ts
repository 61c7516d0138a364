import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CounterCompactor } from '../../../database/counters/counter-compactor';
import { LEAD_PLANNING_COUNTERS } from './lead-planning-counters';

/** Folds the planned-call counters' deltas every second (see CounterCompactor), on its own timer beside the lead counters'. */
@Injectable()
export class LeadPlanningCountersCompactor extends CounterCompactor {
  constructor(ds: DataSource) {
    super(ds, [LEAD_PLANNING_COUNTERS], new Logger('LeadPlanningCounters'));
  }
}
