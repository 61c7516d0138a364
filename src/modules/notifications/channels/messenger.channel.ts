import { Inject, Injectable } from '@nestjs/common';
import { scrubText } from '../../../common/pg-errors';
import { APP_CONFIG, AppConfig } from '../../../config/app.config';
import { MessengerMessage } from '../domain/notification';

const TIMEOUT_MS = 10_000;

/**
 * The messenger bot: `POST MESSENGER_BOT_URL` with a JSON `MessengerMessage` and an
 * `Idempotency-Key` stable per delivery row (a retry after a lost answer can be recognised).
 * Anything but 2xx, or no answer within 10 s, is a failed attempt.
 */
@Injectable()
export class MessengerChannel {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get configured(): boolean {
    return Boolean(this.config.messengerBotUrl);
  }

  async send(message: MessengerMessage, idempotencyKey: string): Promise<void> {
    const url = this.config.messengerBotUrl;
    if (!url) throw new Error('MESSENGER_BOT_URL is not configured on this worker');
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      const e = err as Error & { cause?: Error };
      throw new Error(`messenger bot unreachable: ${e.cause?.message ?? e.message}`, { cause: err });
    }
    const body = await res.text().catch(() => '');
    if (!res.ok) {
      const reason = botReason(body);
      throw new Error(`messenger bot answered HTTP ${res.status}${reason ? `: ${reason}` : ''}`);
    }
  }
}

/**
 * The bot's stated reason (`description`, `error` or `message` of a JSON answer), with anything
 * that could be a value taken out: never the raw body, which may echo the chat id or the text.
 */
function botReason(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return '';
  }
  const o = (parsed ?? {}) as Record<string, unknown>;
  const reason = [o.description, o.error, o.message].find((v) => typeof v === 'string');
  return typeof reason === 'string' ? scrubText(reason, 120) : '';
}
