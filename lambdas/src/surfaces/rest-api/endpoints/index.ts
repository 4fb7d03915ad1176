import type { EndpointName } from '@service/shared';
import { accountEndpoints } from './account';
import { agentEndpoints } from './agents';
import { recordEndpoints } from './records';
import { skillAccessEndpoints } from './skills-access';
import { skillEndpoints } from './skills';
import type { EndpointHandlers } from './types';
import { pendingEndpoints } from './pending';
import { signInEndpoints } from './auth';
import { memberEndpoints } from './members';
import { webhookDeliveryEndpoints } from './webhook-deliveries';
import { connectionEndpoints } from './connections';

/** Every endpoint of the contract has exactly one implementation (the type fails to check if one is missing). */
export const ENDPOINT_HANDLERS: EndpointHandlers<EndpointName> = { ...agentEndpoints, ...recordEndpoints, ...skillEndpoints, ...skillAccessEndpoints, ...accountEndpoints, ...webhookDeliveryEndpoints, ...pendingEndpoints, ...signInEndpoints, ...memberEndpoints, ...connectionEndpoints };
