import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * Real servers, in-process on 127.0.0.1 with ephemeral ports, standing in for the outside world:
 * an SMTP server (the `smtp-server` package) that keeps every message it accepts, and an HTTP
 * receiver standing in for the messenger bot. Start them before `createTestApp`, pass their URLs.
 */

export interface ReceivedMail {
  /** Envelope sender and recipients, as the SMTP session gave them. */
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
}

export interface FakeSmtp {
  url: string;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

export interface FakeSmtpOptions {
  /** Recipients the server refuses with 550 (a permanent error for that message). */
  reject?: (address: string) => boolean;
}

export async function startFakeSmtp(options: FakeSmtpOptions = {}): Promise<FakeSmtp> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.reject?.(address.address)) {
        return callback(Object.assign(new Error('5.1.1 mailbox unavailable'), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail = parseMessage(Buffer.concat(chunks).toString('latin1'));
        const from = session.envelope.mailFrom;
        messages.push({
          from: from ? from.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          ...mail,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface BotRequest {
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeBot {
  url: string;
  requests: BotRequest[];
  close(): Promise<void>;
}

export interface FakeBotOptions {
  /** HTTP status to answer a message with (default 200). */
  status?: (body: Record<string, unknown>) => number;
}

/** The messenger bot endpoint: records every POSTed JSON body and answers as told. */
export async function startFakeBot(options: FakeBotOptions = {}): Promise<FakeBot> {
  const requests: BotRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = { unparsable: Buffer.concat(chunks).toString('utf8') };
      }
      requests.push({ headers: req.headers, body });
      const status = options.status?.(body) ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status < 300 ? { ok: true } : { ok: false, description: 'bot is down' }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/send`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last instanceof Error ? String(last) : JSON.stringify(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// --- a small RFC 5322 / MIME reader, enough for the single-part text messages nodemailer sends ---

function parseMessage(raw: string): Omit<ReceivedMail, 'from' | 'to'> {
  const split = raw.indexOf('\r\n\r\n');
  const head = split >= 0 ? raw.slice(0, split) : raw;
  const body = split >= 0 ? raw.slice(split + 4) : '';
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  return { headers, subject: headers.subject ?? '', text: decodeBody(body, encoding).replace(/\r\n/g, '\n').replace(/\n$/, '') };
}

/** RFC 2047 encoded words (nodemailer encodes every non-ASCII header that way, in UTF-8). */
function decodeWords(value: string): string {
  const joined = value.replace(/\?=\s+=\?/g, '?==?');
  return joined.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : qpBytes(data.replace(/_/g, ' ')).toString('utf8'),
  );
}

function qpBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(text.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return qpBytes(body.replace(/=\r\n/g, '')).toString('utf8');
  return Buffer.from(body, 'latin1').toString('utf8');
}
