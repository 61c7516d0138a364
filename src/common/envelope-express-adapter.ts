import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { successBody } from './envelope';

/**
 * Nest's Express adapter, writing every handler's result in the success envelope (API.md); an
 * error status (the global filter writes its own envelope) and a stream are written as they are.
 * A global interceptor doing the same measured ~7% of a detail read's server CPU (its rxjs pipeline; bench/detail-profile.ts).
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    const wrap = !(statusCode !== undefined && statusCode >= 400) && !(body instanceof StreamableFile);
    return super.reply(response, wrap ? successBody(body) : body, statusCode) as unknown;
  }
}
