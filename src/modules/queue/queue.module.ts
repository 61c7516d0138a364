import { Global, Module } from '@nestjs/common';
import { JobQueueService } from './job-queue.service';
import { QueueRepository } from './persistence/queue.repository';

@Global()
@Module({ providers: [QueueRepository, JobQueueService], exports: [JobQueueService] })
export class QueueModule {}
