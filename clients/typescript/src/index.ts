import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths, webhooks } from './schema';
export { verifyWebhook, WebhookVerificationError, type WebhookBody, type WebhookEvent, type WebhookHeaders, type VerifyWebhookOptions } from './webhooks';

export interface CallCenterClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service answers, e.g. `https://callcenter.example.com` (no trailing path). */
  baseUrl: string;
  /** An API key (`X-Api-Key`), sent with every request. */
  apiKey: string;
}

/** A typed client of the service: `client.GET('/v2/lead/detail/{leadId}', { params: { path: { leadId: 1 } } })`. */
export type CallCenterClient = Client<paths>;

/** The client of every operation in openapi.json, authenticated with `apiKey`. */
export function createCallCenterClient({ baseUrl, apiKey, headers, ...rest }: CallCenterClientOptions): CallCenterClient {
  return createClient<paths>({ ...rest, baseUrl: baseUrl.replace(/\/+$/, ''), headers: { ...headers, 'X-Api-Key': apiKey } });
}

/** A component schema by name: `Schema<'LeadDto'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
