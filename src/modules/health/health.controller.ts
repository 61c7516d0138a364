import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { fail } from '../../common/envelope';
import { Public } from '../auth/http/auth.decorators';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('v1/health/check')
  @ApiSecurity('api-key')
  @ApiOperation({ summary: 'Availability of internal components and external platforms (503 when any fails)' })
  @ApiOkResponse({ description: 'data: map of component key to {success, message, data:{executionTime, reasonPhrase}}' })
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
  @ApiOperation({ summary: 'Liveness probe (no key)' })
  live() {
    return [];
  }

  @Public()
  @Get('health/ready')
  @ApiOperation({ summary: 'Readiness probe (no key): 503 while the database is unreachable' })
  async ready(@Res({ passthrough: true }) res: Response) {
    if (!(await this.health.ready())) {
      res.status(503);
      return fail('Database unavailable');
    }
    return [];
  }
}
