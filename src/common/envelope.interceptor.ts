import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, map } from 'rxjs';
import { isCompleteEnvelope, ok } from './envelope';

/** Wraps whatever a controller returns in the success envelope; "nothing" becomes `[]` as API.md says. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((data) => (isCompleteEnvelope(data) ? data : ok(data === undefined || data === null ? [] : data))));
  }
}
