import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';
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
export class EmailChannel implements OnModuleDestroy {
  private transport?: Transporter;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get configured(): boolean {
    return Boolean(this.config.smtpUrl);
  }

  async send(mail: OutgoingEmail): Promise<void> {
    if (!this.config.smtpUrl) throw new Error('SMTP_URL is not configured on this worker');
    this.transport ??= nodemailer.createTransport({
      url: this.config.smtpUrl,
      pool: true,
      maxConnections: 5,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    await this.transport.sendMail({
      from: this.config.notificationEmailFrom,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      messageId: mail.messageId,
    });
  }

  onModuleDestroy(): void {
    this.transport?.close();
    this.transport = undefined;
  }
}
