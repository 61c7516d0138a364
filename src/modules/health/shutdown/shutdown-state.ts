import { Injectable } from '@nestjs/common';

/**
 * Whether this instance is shutting down. Set by the signal handler (graceful-shutdown.ts) the
 * moment SIGTERM or SIGINT arrives, so the readiness probe answers 503 from then on.
 */
@Injectable()
export class ShutdownState {
  private startedAt: number | null = null;

  get shuttingDown(): boolean {
    return this.startedAt !== null;
  }

  begin(): void {
    this.startedAt ??= Date.now();
  }
}
