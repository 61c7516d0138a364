import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiKeyErrors } from '../../../common/openapi/envelope.decorators';
import { RequireScope } from '../../auth/http/auth.decorators';
import { MetricsService } from '../metrics.service';

@ApiTags('health')
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  /** Prometheus text format, not the envelope: it is read by a scraper, not an integrator. */
  @Get('metrics')
  @RequireScope('admin')
  @ApiSecurity('api-key')
  @ApiOperation({
    summary: 'Prometheus metrics of this instance (scope admin): HTTP by route, DB pool, job queues, process',
    description: 'Text exposition format, not the envelope; 403 without the admin scope.',
  })
  @ApiResponse({ status: 200, description: 'Prometheus exposition format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiKeyErrors()
  async scrape(@Res() res: Response): Promise<void> {
    const body = await this.metrics.registry.metrics();
    res.status(200).type(this.metrics.registry.contentType).send(body);
  }
}
