import { Module } from '@nestjs/common';
import { CustomFieldsModule } from '../custom-fields/custom-fields.module';
import { OrdersModule } from '../orders/orders.module';
import { StatusCataloguesV2Controller } from './http/status-catalogues.v2.controller';
import { LeadsV1Controller } from './http/leads.v1.controller';
import { LeadsV2Controller } from './http/leads.v2.controller';
import { LeadAsyncJobSweeper } from './lead-async-job-sweeper';
import { StatusCataloguesService } from './status-catalogues.service';
import { LeadsDemoSeed } from './leads.seed';
import { LeadsService } from './leads.service';
import { LeadPreparationService } from './lead-preparation.service';
import { LeadCreateJobsService } from './lead-create-jobs.service';
import { LeadReadsService } from './lead-reads.service';
import { LeadCallAttemptsService } from './lead-call-attempts.service';
import { LeadCallableService } from './lead-callable.service';
import { LeadStatsService } from './lead-stats.service';
import { LeadCountersCompactor } from './persistence/lead-counters.compactor';
import { LeadPlanningCountersCompactor } from './persistence/lead-planning-counters.compactor';
import { LeadBulkService } from './lead-bulk.service';
import { LeadBulkRepository } from './persistence/lead-bulk.repository';
import { LeadAsyncJobsRepository } from './persistence/lead-async-jobs.repository';
import { StatusCataloguesRepository } from './persistence/status-catalogues.repository';
import { LeadsRepository } from './persistence/leads.repository';
import { LeadDialingRepository } from './persistence/lead-dialing.repository';
import { LeadDialingService } from './lead-dialing.service';

/** Leads (v1 and v2), asynchronous creation (queue `lead.create`), the lead status catalogue, list counters. */
@Module({
  imports: [OrdersModule, CustomFieldsModule],
  controllers: [LeadsV2Controller, LeadsV1Controller, StatusCataloguesV2Controller],
  providers: [
    LeadsRepository,
    LeadAsyncJobsRepository,
    StatusCataloguesRepository,
    StatusCataloguesService,
    LeadCountersCompactor,
    LeadAsyncJobSweeper,
    LeadPreparationService,
    LeadsService,
    LeadCreateJobsService,
    LeadReadsService,
    LeadCallAttemptsService,
    LeadBulkRepository,
    LeadBulkService,
    LeadsDemoSeed,
    LeadCallableService,
    LeadStatsService,
    LeadPlanningCountersCompactor,
    LeadDialingRepository,
    LeadDialingService,
  ],
  exports: [LeadCallAttemptsService, LeadStatsService, LeadDialingService, LeadCallableService],
})
export class LeadsModule {}
