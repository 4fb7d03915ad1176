import { ApiError, OAuthRefusal } from '@service/shared';
import * as z from 'zod';
import { readRegistration, registerClient } from '../../domains/connections/clients';
import type { Deps } from '../../infra/deps';
import { bearerToken } from '../../infra/http/credentials';
import type { HttpEvent, HttpResult } from '../../infra/http/event';
import { firstIssue, readJsonBody } from '../../infra/http/json-body';
import { oauthJson } from './responses';
import type { OAuthUrls } from './urls';

const RegistrationBody = z.object({
  redirect_uris: z.array(z.string().max(2000)).min(1).max(10),
  client_name: z.string().max(200).optional(),
  client_uri: z.url().max(2000).optional(),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  scope: z.string().optional(),
});

const MAX_REGISTRATION_BYTES = 16 * 1024;

const registrationAnswer = (
  urls: OAuthUrls,
  client: { clientId: string; clientName: string; clientUri: string | null; redirectUris: string[]; createdAt: string },
) => ({
  client_id: client.clientId,
  client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
  client_name: client.clientName,
  ...(client.clientUri ? { client_uri: client.clientUri } : {}),
  redirect_uris: client.redirectUris,
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  registration_client_uri: `${urls.issuer}/oauth/register/${client.clientId}`,
});

/**
 * The registration's metadata, read by the HTTP kit (size cap, media type, nesting depth, JSON) and checked against
 * its schema; any problem answers as RFC 7591 does, `invalid_redirect_uri` or `invalid_client_metadata`.
 */
function registrationOf(event: HttpEvent): z.output<typeof RegistrationBody> {
  let json: unknown;
  try {
    json = readJsonBody(event, { maxBytes: MAX_REGISTRATION_BYTES });
  } catch (error) {
    if (error instanceof ApiError) throw new OAuthRefusal('invalid_client_metadata', error.message);
    throw error;
  }
  const parsed = RegistrationBody.safeParse(json);
  if (parsed.success) return parsed.data;
  const { field, message } = firstIssue(parsed.error);
  throw new OAuthRefusal(field.split('.')[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata', message);
}

/** POST /oauth/register: Dynamic Client Registration (RFC 7591) of a public client, rate limited per address. */
export async function registerEndpoint(deps: Deps, event: HttpEvent, urls: OAuthUrls): Promise<HttpResult> {
  const body = registrationOf(event);
  const { client, registrationToken } = await registerClient(deps, event.requestContext.http.sourceIp, {
    redirectUris: body.redirect_uris,
    ...(body.client_name ? { clientName: body.client_name } : {}),
    ...(body.client_uri ? { clientUri: body.client_uri } : {}),
    ...(body.token_endpoint_auth_method ? { tokenEndpointAuthMethod: body.token_endpoint_auth_method } : {}),
    ...(body.grant_types ? { grantTypes: body.grant_types } : {}),
    ...(body.response_types ? { responseTypes: body.response_types } : {}),
  });
  return oauthJson(201, { ...registrationAnswer(urls, client), registration_access_token: registrationToken });
}

/** GET /oauth/register/{client_id} with the registration access token (RFC 7592 §2.1). */
export async function readRegistrationEndpoint(deps: Deps, event: HttpEvent, urls: OAuthUrls, clientId: string): Promise<HttpResult> {
  const token = bearerToken(event);
  const client = token ? await readRegistration(deps, clientId, token) : undefined;
  if (!client)
    return oauthJson(
      401,
      { error: 'invalid_token', error_description: 'Send the registration_access_token of this client as a Bearer token' },
      { 'www-authenticate': 'Bearer error="invalid_token"' },
    );
  return oauthJson(200, registrationAnswer(urls, client));
}
