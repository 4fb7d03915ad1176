import { ApiError, newKeyId } from '@service/shared';
import { standardWebhooksSecret } from '@service/webhooks';
import { createApiKey, listApiKeys, revokeApiKey, toApiKeyResponse } from '../../../domains/access/api-keys';
import { billingPeriod, monthToDate, usageReport } from '../../../domains/usage/usage';
import {
  assertSubscribableUrl,
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  toSubscriptionResponse,
} from '../../../domains/webhooks/subscriptions';
import type { EndpointHandlers } from './types';

type AccountEndpoints = 'usageTokens' | 'billingGet' | 'webhooksCreate' | 'webhooksList' | 'webhooksDelete' | 'keysCreate' | 'keysList' | 'keysRevoke';

export const accountEndpoints: EndpointHandlers<AccountEndpoints> = {
  usageTokens: async ({ deps, workspace, query }) => ({ data: await usageReport(deps, workspace.id, query) }),

  billingGet: async ({ deps, workspace }) => {
    const used = await monthToDate(deps, workspace.id);
    return {
      data: {
        plan: workspace.plan,
        period: billingPeriod(deps.now()),
        token_limit: workspace.tokenLimit,
        tokens_used: used.total_tokens,
        tokens_remaining: Math.max(0, workspace.tokenLimit - used.total_tokens),
        runs: used.runs,
      },
    };
  },

  webhooksCreate: async ({ deps, workspace, body, action }) => {
    assertSubscribableUrl(body.url, deps.config.webhookAllowLocal);
    const subscription = await createSubscription(deps, workspace.id, body, action);
    return {
      data: {
        subscription: toSubscriptionResponse(subscription),
        signing_secret: subscription.signingSecret,
        standard_webhooks_secret: standardWebhooksSecret(subscription.signingSecret),
        secret_already_shown: false,
      },
      msg: 'Subscription created; store the signing secret now, it is not shown again',
    };
  },

  webhooksList: async ({ deps, workspace }) => ({ data: { subscriptions: (await listSubscriptions(deps, workspace.id)).map(toSubscriptionResponse) } }),

  webhooksDelete: async ({ deps, workspace, body }) => {
    await deleteSubscription(deps, workspace.id, body.webhook_id);
    return { data: { deleted: true as const, webhook_id: body.webhook_id }, msg: 'Subscription deleted' };
  },

  keysCreate: async ({ deps, workspace, body, action }) => {
    const id = newKeyId(action.seed);
    // A retry after a crash finds the key its first attempt made; only its hash was kept, so the secret is gone.
    const earlier = action.seed ? (await listApiKeys(deps, workspace.id)).find((key) => key.id === id) : undefined;
    if (earlier) {
      return {
        data: { key: toApiKeyResponse(earlier), secret: null, secret_already_shown: true },
        msg: 'This key was created by an earlier attempt; revoke it and create another if you lack the secret',
      };
    }
    const { key, secret } = await createApiKey(deps, workspace.id, body.name, { id, createdAt: action.at });
    return { data: { key: toApiKeyResponse(key), secret, secret_already_shown: false }, msg: 'Key created; copy it now, it is not shown again' };
  },

  keysList: async ({ deps, workspace }) => ({ data: { keys: (await listApiKeys(deps, workspace.id)).map(toApiKeyResponse) } }),

  keysRevoke: async ({ deps, workspace, apiKey, body }) => {
    if (body.key_id === apiKey?.id && (await listApiKeys(deps, workspace.id)).filter((key) => !key.revokedAt).length === 1) {
      throw new ApiError('VALIDATION_ERROR', 'This is the last live key of the workspace; create another before revoking it', { field: 'key_id' });
    }
    return { data: { key: toApiKeyResponse(await revokeApiKey(deps, workspace.id, body.key_id)) }, msg: 'Key revoked' };
  },
};
