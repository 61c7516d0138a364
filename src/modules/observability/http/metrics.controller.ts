import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
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
  @ApiProduces('text/plain')
  @ApiOperation({ summary: 'Prometheus metrics of this instance (scope admin): HTTP by route, DB pool, job queues, process' })
  @ApiOkResponse({ description: 'Prometheus exposition format 0.0.4' })
  async scrape(@Res() res: Response): Promise<void> {
    const body = await this.metrics.registry.metrics();
    res.status(200).type(this.metrics.registry.contentType).send(body);
  }
}
