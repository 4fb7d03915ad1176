import { z } from 'zod';
import { startPlatform } from './platform';

/** `npm start`: the whole platform on this machine, data kept under DATA_DIR across restarts. */
const env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8787),
    HOST: z.string().default('127.0.0.1'),
    DATA_DIR: z.string().default('.data'),
  })
  .parse(process.env);

const platform = await startPlatform({ port: env.PORT, host: env.HOST, dataDir: env.DATA_DIR });
const key = platform.demo.createdApiKey;

console.log(`
Local platform running (data in ${env.DATA_DIR})
  API base URL   ${platform.apiBaseUrl}
  OpenAPI        ${platform.apiBaseUrl}/openapi.json
  Widget demo    ${platform.url}/
  Demo agent     ${platform.demo.agentId}
  Demo API key   ${key ? `${key}   (shown once; only its hash is stored)` : 'created on the first start; set SERVICE_DEMO_API_KEY=sk_live_… to register a key of your choice'}

Try:
  curl -s ${platform.apiBaseUrl}/agents/list/ -H "X-Service-Api-Key: ${key ?? '$SERVICE_API_KEY'}"
`);

const shutdown = async () => {
  await platform.stop();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown());
process.once('SIGTERM', () => void shutdown());
