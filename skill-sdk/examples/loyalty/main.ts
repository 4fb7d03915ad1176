/**
 * Runs the loyalty skill: SKILL_BEARER=... SKILL_TURN_TOKEN_SECRET=... SERVICE_API_URL=... PORT=4100 \
 *   npx tsx skill-sdk/examples/loyalty/main.ts
 */
import { startSkill } from '@service/skill-sdk';
import { loyalty } from './skill';

const running = await startSkill(loyalty, { port: Number(process.env.PORT ?? 4100) });
console.log(`loyalty skill on ${running.url} (manifest: ${running.url}/manifest)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void running.close());
