import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../infra/deps';
import { presentedCredential } from '../../infra/http/credentials';
import type { HttpEvent } from '../../infra/http/event';
import { skillHostOf } from '../../domains/skills/host';
import { ApiError } from '@service/shared';
import { refuseTurnToken } from '../skill-callbacks/turn-auth';
import { guardCredential } from '../../domains/access/credential-failures';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The master system key, in X-Service-Master-Key or Authorization: Bearer; compared in constant time, failures delayed. */
export async function authenticateMaster(deps: Deps, event: HttpEvent): Promise<void> {
  refuseTurnToken(event);
  const expected = skillHostOf(deps).masterKey;
  if (!expected) throw new ApiError('MASTER_KEY_REQUIRED', 'Administrative routes are closed: the platform has no SERVICE_MASTER_KEY');
  const presented = presentedCredential(event, 'x-service-master-key');
  if (!presented) throw new ApiError('MASTER_KEY_REQUIRED', 'Send the master key in X-Service-Master-Key');
  await guardCredential(
    deps,
    { kind: 'master-key', sourceIp: event.requestContext.http.sourceIp, presented },
    async () => {
      if (!timingSafeEqual(digest(presented), digest(expected))) throw new ApiError('MASTER_KEY_INVALID', 'The master key is not valid');
    },
    (error) => error instanceof ApiError && error.code === 'MASTER_KEY_INVALID',
  );
}
