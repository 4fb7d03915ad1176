import * as z from 'zod';
import { startPlatform } from './platform';
import { StartupError } from './startup-error';
import { stopOnSignal } from './stop-on-signal';

/** The local platform (`npm start`): the whole platform in this process, data kept under DATA_DIR across restarts. */
const parsed = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8787),
    HOST: z.string().default('127.0.0.1'),
    DATA_DIR: z.string().default('.data'),
    SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  })
  .safeParse(process.env);

/** A mistake the user can fix: one line on stderr, exit code 1. */
function refuse(message: string): never {
  console.error(message);
  process.exit(1);
}

if (!parsed.success) refuse(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
const env = parsed.data;

const printMail = (mail: { to: string; subject: string }) => console.log(`Mail to ${mail.to}: "${mail.subject}"   (all mail: /dev/mail.json)`);

// The offline model writes at a hosted model's pace here, so the demo shows text as it is written (tests stream at once).
const pace = { OFFLINE_MODEL_DELTA_PAUSE_MS: process.env.OFFLINE_MODEL_DELTA_PAUSE_MS ?? '40' };
const platform = await startPlatform({
  port: env.PORT,
  smtpPort: env.SMTP_PORT,
  host: env.HOST,
  dataDir: env.DATA_DIR,
  onMail: printMail,
  env: pace,
  demoKnowledge: true,
}).catch((error: unknown) => {
  if (error instanceof StartupError) refuse(error.message);
  throw error;
});
const key = platform.demo.createdApiKey;
const port = new URL(platform.url).port;

console.log(`
Local platform running (data in ${env.DATA_DIR})
  API base URL   ${platform.apiBaseUrl}
  OpenAPI        ${platform.apiBaseUrl}/openapi.json
  Widget demo    ${platform.url}/
  Demo agent     ${platform.demo.agentId}
  Demo owner: ${platform.demo.ownerEmail} — sign in at http://localhost:${port}/dashboard/
  Mail           http://localhost:${port}/dev/mail.json   (sign-in codes and invitations land here, newest first)
  Inbound SMTP   ${env.HOST}:${platform.smtpPort}   (mail to an agent's address reaches it: docs/email.md)
  Demo API key   ${key ? `${key}   (shown once; only its hash is stored)` : 'created on the first start; set SERVICE_DEMO_API_KEY=sk_live_… to register a key of your choice'}

Try:
  curl -s ${platform.apiBaseUrl}/agents/list/ -H "X-Service-Api-Key: ${key ?? '$KEY'}"
  or the README's "Try it" script, with KEY=<this key> BASE=${platform.apiBaseUrl}
`);

stopOnSignal(platform);
