import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiResponse, ApiSecurity, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { fail } from '../../../common/envelope';
import { ApiEnvelope, ApiErrors, envelopeOf } from '../../../common/openapi/envelope.decorators';
import { Public } from '../../auth/http/auth.decorators';
import { HealthService } from '../health.service';
import { Isolation } from '../../../common/isolation';

class HealthComponentDataView {
  @ApiProperty({ example: 0.002, description: 'seconds the check took' }) executionTime: number;
  @ApiProperty({ required: false, example: 'Ok' }) reasonPhrase?: string;
}

/** One component of /v1/health/check; `data` may carry more detail (e.g. queue consumers). */
class HealthComponentView {
  @ApiProperty() success: boolean;
  @ApiProperty({ description: "'' when it works; otherwise why not" }) message: string;
  @ApiProperty({ type: HealthComponentDataView }) data: HealthComponentDataView;
}

const HEALTH_MAP = { type: 'object' as const, additionalProperties: { $ref: getSchemaPath(HealthComponentView) }, description: 'component key → its state' };

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('v1/health/check')
  // Components' state, no customer data: client keys read it too.
  @Isolation('shared')
  @ApiSecurity('api-key')
  @ApiOperation({
    summary: 'Availability of internal components and external platforms (503 when any fails)',
    description: 'data maps each component (database, job queues, platforms) to its own {success, message, data}; 503 carries the same map.',
  })
  @ApiEnvelope(HEALTH_MAP, { description: 'Every component works', models: [HealthComponentView] })
  @ApiResponse({ status: 503, description: 'A component fails: the same map in a failure envelope', schema: envelopeOf(HEALTH_MAP, false) })
  @ApiErrors(401, 403, 429)
  async check(@Res({ passthrough: true }) res: Response) {
    const report = await this.health.check();
    if (!report.success) {
      res.status(503);
      // Bypass the success envelope: the body is a failure envelope with the same detail.
      return fail('One or more components are unavailable', report.components);
    }
    return report.components;
  }

  @Public()
  @Get('health/live')
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness probe (no key)', description: 'Answers while the process serves HTTP; does not touch the database.', security: [] })
  @ApiEnvelope('empty', { description: 'Alive; data is []' })
  @ApiErrors(400)
  live() {
    return [];
  }

  @Public()
  @Get('health/ready')
  @ApiOperation({
    summary: 'Readiness probe (no key): 503 while the database is unreachable or the instance shuts down',
    description:
      'Answers 200 when a query on the database succeeds; 503 from the moment the instance receives SIGTERM (it keeps serving while load balancers take it out). No key is needed or checked.',
    security: [],
  })
  @ApiEnvelope('empty', { description: 'Ready; data is []' })
  @ApiErrors(400, 503)
  async ready(@Res({ passthrough: true }) res: Response) {
    const reason = await this.health.notReadyReason();
    if (reason) {
      res.status(503);
      return fail(reason);
    }
    return [];
  }
}
