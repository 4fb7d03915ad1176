import { join, resolve } from 'node:path';
import * as z from 'zod';
import { startBundledPlatform } from './platform';
import { synthesize } from './synth';
import { stopOnSignal } from '../local/stop-on-signal';

/**
 * `npm start -- --bundled`: synthesizes the stack (or takes BUNDLED_CDK_OUT, an earlier `cdk synth` output) and runs
 * its bundles as Lambda would, data kept under DATA_DIR/bundled. MAIL_FROM_IDENTITIES (comma-separated domains or
 * addresses) makes the emulated SES refuse every other sender, as SES refuses unverified ones.
 */
const env = z
  .object({
    DATA_DIR: z.string().default('.data'),
    BUNDLED_CDK_OUT: z.string().optional(),
    MAIL_FROM_IDENTITIES: z.string().optional(),
    SERVICE_DEMO_API_KEY: z.string().optional(),
  })
  .parse(process.env);

const dataDir = resolve(env.DATA_DIR, 'bundled');
const cdkOut = env.BUNDLED_CDK_OUT ? resolve(env.BUNDLED_CDK_OUT) : join(dataDir, 'cdk.out');
if (!env.BUNDLED_CDK_OUT) {
  console.log(`Synthesizing the stack into ${cdkOut} …`);
  await synthesize(cdkOut);
}
const verifiedIdentities = env.MAIL_FROM_IDENTITIES?.split(',')
  .map((identity) => identity.trim())
  .filter(Boolean);
const platform = await startBundledPlatform({
  cdkOut,
  dataDir: join(dataDir, 'store'),
  ...(verifiedIdentities ? { verifiedIdentities } : {}),
  ...(env.SERVICE_DEMO_API_KEY ? { demoApiKey: env.SERVICE_DEMO_API_KEY } : {}),
});

console.log(`
Bundled platform running: the bundles of ${cdkOut}, each in a Lambda-like sandbox (data in ${dataDir})
${Object.entries(platform.outputs)
  .map(([name, value]) => `  ${name.padEnd(16)} ${value}`)
  .join('\n')}
  Mail             ${platform.mailUrl}
  Demo agent       ${platform.demo.agentIds[0]}   owner ${platform.demo.ownerEmail}
  Demo API key     ${platform.demo.createdApiKey ?? '(created on the first start of this DATA_DIR)'}
`);

stopOnSignal(platform);
