import { inProcessSignals } from '../../infra/signals';

/** In-process news that a conversation changed (an entry, a change of hands, a teammate typing): see infra/signals.ts. */
const signals = inProcessSignals();

export const announceConversation = signals.announce;
export const onConversation = signals.on;
