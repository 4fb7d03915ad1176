import { OAuthRefusal, randomBase62 } from '@service/shared';
import type { Deps } from '../../infra/deps';
import { hitRateLimit } from '../access/rate-limit';
import { fetchClientMetadata, isMetadataDocumentUrl } from './client-metadata';
import { findClient, putClient } from './oauth-client-repository';
import { newOAuthSecret } from './secrets';
import { storedHash } from '../../infra/secrets/stored-hash';
import { redirectUriProblem } from './redirect-uris';

/** A client as the authorization server knows it: registered (DCR) or described by its metadata document (CIMD). */
export interface OAuthClient {
  clientId: string;
  clientName: string;
  clientUri: string | null;
  redirectUris: string[];
  /** Set for a metadata-document client: the host its document came from. */
  verifiedDomain: string | null;
}

/** Registrations per source address and minute (RFC 7591 leaves abuse control to the server). */
export const REGISTRATIONS_PER_MINUTE = 10;

/** The client behind a client_id: an https URL is a metadata document, anything else must be registered. */
export async function resolveClient(deps: Deps, clientId: string): Promise<OAuthClient> {
  if (isMetadataDocumentUrl(clientId)) {
    const document = await fetchClientMetadata(deps.config, clientId);
    return { ...document, verifiedDomain: document.verifiedDomain };
  }
  const stored = /^mcpc_[A-Za-z0-9]{24}$/.test(clientId) ? await findClient(deps, clientId) : undefined;
  if (!stored) throw new OAuthRefusal('invalid_client', `Unknown client_id ${clientId}: register it (RFC 7591) or use an https client metadata document URL`);
  return { clientId: stored.clientId, clientName: stored.clientName, clientUri: stored.clientUri, redirectUris: stored.redirectUris, verifiedDomain: null };
}

export interface Registration {
  redirectUris: string[];
  clientName?: string;
  clientUri?: string;
  tokenEndpointAuthMethod?: string;
  grantTypes?: string[];
  responseTypes?: string[];
}

/** Dynamic Client Registration (RFC 7591) of a public client, rate limited per source address. */
export async function registerClient(deps: Deps, sourceIp: string, registration: Registration) {
  await hitRateLimit(deps, `oauth-register#${sourceIp}`, REGISTRATIONS_PER_MINUTE);
  if (registration.redirectUris.length === 0) throw new OAuthRefusal('invalid_redirect_uri', 'redirect_uris must list at least one URI');
  const problem = registration.redirectUris.map(redirectUriProblem).find(Boolean);
  if (problem) throw new OAuthRefusal('invalid_redirect_uri', problem);
  if (registration.tokenEndpointAuthMethod !== undefined && registration.tokenEndpointAuthMethod !== 'none') {
    throw new OAuthRefusal('invalid_client_metadata', 'Only public clients are registered: token_endpoint_auth_method must be none (PKCE protects the code)');
  }
  const unsupportedGrant = registration.grantTypes?.find((grant) => grant !== 'authorization_code' && grant !== 'refresh_token');
  if (unsupportedGrant)
    throw new OAuthRefusal('invalid_client_metadata', `grant_types: ${unsupportedGrant} is not supported (authorization_code, refresh_token)`);
  if (registration.responseTypes?.some((type) => type !== 'code')) throw new OAuthRefusal('invalid_client_metadata', 'response_types: only code is supported');
  const registrationToken = newOAuthSecret('mcp_reg');
  const client = {
    clientId: `mcpc_${randomBase62(24)}`,
    clientName: registration.clientName?.slice(0, 200) || 'Unnamed client',
    clientUri: registration.clientUri ?? null,
    redirectUris: registration.redirectUris,
    registrationTokenHash: storedHash(registrationToken),
    createdAt: deps.now().toISOString(),
  };
  await putClient(deps, client);
  return { client, registrationToken };
}

/** A registered client read back with its registration access token (RFC 7592 §2.1); undefined when they do not match. */
export async function readRegistration(deps: Deps, clientId: string, registrationToken: string) {
  const stored = await findClient(deps, clientId);
  return stored && stored.registrationTokenHash === storedHash(registrationToken) ? stored : undefined;
}
