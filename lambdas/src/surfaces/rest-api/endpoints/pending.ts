import { ApiError, type EndpointName } from '@service/shared';
import type { EndpointHandlers } from './types';

type Pending =
  | 'authPasskeyRegisterOptions' | 'authPasskeyRegister' | 'authPasskeySigninOptions' | 'authPasskeySignin'
  | 'authPasskeyList' | 'authPasskeyDelete'
  | 'agentsUpdate' | 'conversationsList' | 'conversationsGet' | 'webhooksTest';

const notYet = async (): Promise<never> => {
  throw new ApiError('NOT_FOUND', 'Not built yet');
};
export const pendingEndpoints = Object.fromEntries(
  ([
    'authPasskeyRegisterOptions', 'authPasskeyRegister', 'authPasskeySigninOptions', 'authPasskeySignin',
    'authPasskeyList', 'authPasskeyDelete',
    'agentsUpdate', 'conversationsList', 'conversationsGet', 'webhooksTest',
  ] satisfies Pending[] as EndpointName[]).map((name) => [name, notYet]),
) as unknown as EndpointHandlers<Pending>;
