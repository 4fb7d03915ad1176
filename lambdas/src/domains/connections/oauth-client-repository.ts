import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../infra/deps';
import { putNewItem } from '../../infra/store/dynamo';

/** Every store call of the `oauthClients` table: registered OAuth clients by client id. */

export interface StoredClient {
  clientId: string;
  clientName: string;
  clientUri: string | null;
  redirectUris: string[];
  /** SHA-256 of the registration access token (RFC 7592 read of registration_client_uri). */
  registrationTokenHash: string;
  createdAt: string;
}

export async function putClient(deps: Deps, client: StoredClient): Promise<void> {
  await putNewItem(deps.store, deps.store.table('oauthClients'), client, 'clientId');
}

export async function findClient(deps: Deps, clientId: string): Promise<StoredClient | undefined> {
  const result = await deps.store.doc.send(new GetCommand({ TableName: deps.store.table('oauthClients'), Key: { clientId } }));
  return result.Item as StoredClient | undefined;
}
