import type { EndpointName } from '@service/shared';
import { accountEndpoints } from './account';
import { agentEndpoints } from './agents';
import { recordEndpoints } from './records';
import { skillAccessEndpoints } from './skills-access';
import { skillEndpoints } from './skills';
import type { EndpointHandlers } from './types';
import { agentSettingsEndpoints } from './agent-settings';
import type { ConversationEndpoint } from './conversations';
import type { VisitorEndpoint } from './visitors';
import type { SignInEndpoint } from './auth';
import { memberEndpoints } from './members';
import type { PasskeyEndpoint } from './passkeys';
import { webhookDeliveryEndpoints } from './webhook-deliveries';
import { connectionEndpoints } from './connections';
import { runApprovalEndpoints } from './run-approvals';
import { knowledgeEndpoints } from './knowledge';
import { telemetryEndpoints } from './telemetry';
import { draftEndpoints, type EvalEndpoint } from './evals';
import { insightsEndpoints } from './insights';
import { auditEndpoints } from './audit';

/**
 * Every endpoint of the contract has exactly one implementation (the type fails to check if one is missing); the
 * conversation, visitor and eval endpoints are served by a function of their own (conversations-api.ts), which alone may
 * read visitors' conversations, and so are sign-in, sessions and passkeys (auth-api.ts), which alone carries the WebAuthn
 * verifier.
 */
export const ENDPOINT_HANDLERS: EndpointHandlers<
  Exclude<EndpointName, ConversationEndpoint | VisitorEndpoint | EvalEndpoint | SignInEndpoint | PasskeyEndpoint>
> = {
  ...agentEndpoints,
  ...recordEndpoints,
  ...skillEndpoints,
  ...skillAccessEndpoints,
  ...accountEndpoints,
  ...webhookDeliveryEndpoints,
  ...agentSettingsEndpoints,
  ...memberEndpoints,
  ...connectionEndpoints,
  ...runApprovalEndpoints,
  ...knowledgeEndpoints,
  ...telemetryEndpoints,
  ...draftEndpoints,
  ...insightsEndpoints,
  ...auditEndpoints,
};
