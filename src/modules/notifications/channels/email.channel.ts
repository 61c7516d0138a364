import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';
import { scrubText } from '../../../common/pg-errors';
import { APP_CONFIG, AppConfig } from '../../../config/app.config';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  /** Stable per delivery row, so a retried send that did arrive twice is recognisable as one message. */
  messageId: string;
}

/** E-mail over SMTP (nodemailer, pooled connections), configured by `SMTP_URL`. */
@Injectable()
export class EmailChannel implements OnApplicationShutdown {
  private transport?: Transporter;
  private closed = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get configured(): boolean {
    return Boolean(this.config.smtpUrl);
  }

  async send(mail: OutgoingEmail): Promise<void> {
    if (!this.config.smtpUrl) throw new Error('SMTP_URL is not configured on this worker');
    if (this.closed) throw new Error('this worker is shutting down');
    this.transport ??= nodemailer.createTransport({
      url: this.config.smtpUrl,
      pool: true,
      maxConnections: 5,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    try {
      await this.transport.sendMail({
        from: this.config.notificationEmailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
      });
    } catch (err) {
      // eslint-disable-next-line preserve-caught-error -- nodemailer's error repeats the recipient's address: only the scrubbed summary may travel, never the original as a cause
      throw new Error(smtpFailure(err));
    }
  }

  /**
   * After every module's destroy hook, so after the job queue has let its running jobs finish: a send of a job still running
   * when this ran on module destroy made a new pooled transport that nothing closed, and its idle connection held the SMTP
   * server's shutdown open. A send after this fails (its job is retried by another instance).
   */
  onApplicationShutdown(): void {
    this.closed = true;
    this.transport?.close();
    this.transport = undefined;
  }
}

/**
 * A failed send as one line for `last_error` and the logs: nodemailer's code, the SMTP reply code
 * and command, and the server's reply with addresses taken out (a refused RCPT echoes the
 * recipient's address, and nodemailer's message repeats it).
 */
export function smtpFailure(err: unknown): string {
  const e = (err ?? {}) as { code?: unknown; responseCode?: unknown; command?: unknown; response?: unknown; message?: unknown };
  const parts = ['SMTP', e.code, e.responseCode, typeof e.command === 'string' && e.command ? `at ${e.command}` : undefined].filter(
    (p) => p !== undefined && p !== '',
  );
  const reply = typeof e.response === 'string' ? e.response : typeof e.message === 'string' ? e.message : '';
  return `${parts.join(' ')}${reply ? `: ${scrubText(reply, 160)}` : ''}`;
}
