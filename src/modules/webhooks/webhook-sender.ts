import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ipLiteral, refusedAddressReason } from './domain/address-policy';

export interface SendResult {
  /** The HTTP status, or null when none arrived (refused address, connection error, timeout). */
  statusCode: number | null;
  /** Why it is not a success; null for a 2xx. */
  error: string | null;
}

/** An address the policy refuses; the message names the range, never a response body. */
export class RefusedAddressError extends Error {
  readonly code = 'ADDRESS_REFUSED';
}

/**
 * A DNS lookup that refuses names resolving to an address the policy forbids. The socket connects
 * to the very address checked here (Node passes the lookup's answer to connect), so a name cannot
 * resolve to a public address for the check and to a private one for the connection.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const reason = refusedAddressReason(a.address, allowPrivate);
        if (reason) return callback(new RefusedAddressError(`${hostname} ${reason}`), '', 0);
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * Resolves a URL's host as a delivery would, and says why it is refused (null when it may be
 * reached). A name that does not resolve now is accepted: it reaches nothing, and every delivery
 * resolves and checks it again.
 */
export async function refusedHostReason(url: URL, allowPrivate: boolean): Promise<string | null> {
  const literal = ipLiteral(url.hostname);
  if (literal !== null) {
    const reason = refusedAddressReason(literal, allowPrivate);
    return reason ? `host ${reason}` : null;
  }
  if (allowPrivate) return null;
  const lookup = guardedLookup(false);
  return new Promise((resolve) => {
    lookup(url.hostname, { all: true }, (err) => {
      if (!err) return resolve(null);
      resolve(err instanceof RefusedAddressError ? `host ${err.message}` : null);
    });
  });
}

/**
 * Sends webhook requests: POST, no redirects followed (a 3xx is a failure), a hard deadline per
 * attempt, connections kept alive per host, every connection made through `guardedLookup` (and IP
 * literals checked before), so no attempt reaches a refused address whatever DNS answers now.
 */
export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: { allowPrivate: boolean; timeoutMs: number; maxSockets: number }) {
    const lookup = guardedLookup(options.allowPrivate);
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets, lookup });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: options.maxSockets, lookup });
  }

  async send(target: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return { statusCode: null, error: 'invalid URL' };
    }
    const literal = ipLiteral(url.hostname);
    if (literal !== null) {
      const reason = refusedAddressReason(literal, this.options.allowPrivate);
      if (reason) return { statusCode: null, error: `refused: host ${reason}` };
    }
    const isHttps = url.protocol === 'https:';
    const transport = isHttps ? https : http;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (r: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const req = transport.request(
        url,
        {
          method: 'POST',
          agent: isHttps ? this.httpsAgent : this.httpAgent,
          headers: { 'content-type': 'application/json', 'user-agent': 'callcenter-webhooks/1', ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const code = res.statusCode ?? 0;
          // The body is read and dropped (it keeps the connection reusable); it is never stored or logged.
          res.on('data', () => undefined);
          res.on('end', () => finish({ statusCode: code, error: code >= 200 && code < 300 ? null : `HTTP ${code}` }));
          res.on('error', () => finish({ statusCode: code, error: code >= 200 && code < 300 ? null : `HTTP ${code}` }));
        },
      );
      const timer = setTimeout(() => {
        finish({ statusCode: null, error: `timed out after ${this.options.timeoutMs} ms` });
        req.destroy();
      }, this.options.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err instanceof RefusedAddressError) return finish({ statusCode: null, error: `refused: ${err.message}` });
        finish({ statusCode: null, error: err.code ? `${err.code}` : 'connection failed' });
      });
      req.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
