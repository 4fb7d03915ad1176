import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { TABLES, type TableName } from '@service/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/infra/deps';
import { startBareMcpServer, type BareServer } from '../skills/bare-mcp-server';
import { usePlatform } from '../support/platform';

const MASTER_KEY = 'k'.repeat(48);

/** Every stored item of every table, as text, with the table it sits in. */
async function everyItem(deps: Deps): Promise<{ table: TableName; text: string }[]> {
  const items: { table: TableName; text: string }[] = [];
  for (const table of Object.keys(TABLES) as TableName[]) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await deps.store.doc.send(new ScanCommand({ TableName: deps.store.table(table), ExclusiveStartKey: start }));
      for (const item of page.Items ?? []) items.push({ table, text: JSON.stringify(item) });
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return items;
}

describe('no table holds a plain key, and no replayable response holds any secret', () => {
  const ctx = usePlatform({ env: { SERVICE_MASTER_KEY: MASTER_KEY, WEBHOOK_ALLOW_LOCAL: '1' } });
  let skill: BareServer;
  beforeAll(async () => void (skill = await startBareMcpServer()));
  afterAll(() => skill?.close());

  it('after every create that returns a secret is called with an Idempotency-Key, and replayed', async () => {
    const creates = [
      { path: 'keys/create/', body: { name: 'scan' }, field: 'secret' },
      { path: 'webhooks/create/', body: { url: 'https://example.com/scan', events: ['agent.command.failed'] }, field: 'signing_secret' },
      { path: 'skills/register/', body: { url: skill.url, code: 'scan-skill' }, field: 'turn_token_secret' },
    ] as const;
    const secrets: Record<string, string> = {};
    for (const create of creates) {
      const headers = { 'idempotency-key': `scan-${create.path}` };
      const first = await ctx.api<Record<string, unknown>>(create.path, { body: create.body, headers });
      expect(first.status, create.path).toBe(201);
      expect(first.body.data.secret_already_shown).toBe(false);
      secrets[create.field] = first.body.data[create.field] as string;
      const replay = await ctx.api<Record<string, unknown>>(create.path, { body: create.body, headers });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data).toMatchObject({ [create.field]: null, secret_already_shown: true });
    }
    const provisioned = await fetch(`${ctx.platform.apiBaseUrl}/admin/workspaces/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-master-key': MASTER_KEY, 'idempotency-key': 'scan-admin' },
      body: JSON.stringify({ name: 'Scan Co', owner_email: 'owner@scan.example' }),
    });
    const adminSecret = ((await provisioned.json()) as { data: { secret: string } }).data.secret;

    const items = await everyItem(ctx.platform.deps);
    // API keys are stored as hashes only: found nowhere.
    for (const key of [secrets.secret!, adminSecret, ctx.key]) expect(items.filter((item) => item.text.includes(key))).toEqual([]);
    // Signing secrets must be held by the signer (HMAC), in their own item and nowhere else.
    expect(items.filter((item) => item.text.includes(secrets.signing_secret!)).map((item) => item.table)).toEqual(['webhookSubscriptions']);
    expect(items.filter((item) => item.text.includes(secrets.turn_token_secret!)).map((item) => item.table)).toEqual(['skills']);
  });
});
