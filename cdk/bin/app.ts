import { App } from 'aws-cdk-lib';
import { PlatformStack } from '../lib/platform-stack';

/**
 * The CDK app. Context (cdk.json or `-c key=value`): `stackName` (default ServicePlatform), `tablePrefix`
 * (default service-), `model` (MODEL of the model-using functions, e.g. bedrock:<model id>), `modelPrice` (MODEL_PRICE:
 * what its tokens cost, `<input>/<output>` US dollars per million, for insights), `alarmEmail` (subscribed
 * to the alarm topic), `mailFrom` (MAIL_FROM: the platform's sender, a verified SES identity), `agentMailDomain`
 * (AGENT_MAIL_DOMAIN: the agents' addresses are <name>.<id>@ this domain, a verified SES domain), `dashboardOrigin`
 * (DASHBOARD_ORIGIN: https://… where the dashboard is served; sign-in links, CSRF origin, passkeys' relying party),
 * `mcpResourceUrl` (MCP_RESOURCE_URL: https://<custom domain>/mcp, the MCP server's canonical URL) and
 * `mcpAllowedOrigins` (comma-separated browser origins allowed to call it).
 */
const app = new App();
const context = (key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return typeof value === 'string' && value !== '' ? value : undefined;
};
const model = context('model');
const modelPrice = context('modelPrice');
const alarmEmail = context('alarmEmail');
const mailFrom = context('mailFrom');
const agentMailDomain = context('agentMailDomain');
const dashboardOrigin = context('dashboardOrigin');
const mcpResourceUrl = context('mcpResourceUrl');
const mcpAllowedOrigins = context('mcpAllowedOrigins')
  ?.split(',')
  .map((origin) => origin.trim())
  .filter(Boolean);

new PlatformStack(app, context('stackName') ?? 'ServicePlatform', {
  tablePrefix: context('tablePrefix') ?? 'service-',
  ...(model ? { model } : {}),
  ...(modelPrice ? { modelPrice } : {}),
  ...(alarmEmail ? { alarmEmail } : {}),
  ...(mailFrom ? { mailFrom } : {}),
  ...(agentMailDomain ? { agentMailDomain } : {}),
  ...(dashboardOrigin ? { dashboardOrigin } : {}),
  ...(mcpResourceUrl || mcpAllowedOrigins
    ? { mcp: { ...(mcpResourceUrl ? { resourceUrl: mcpResourceUrl } : {}), ...(mcpAllowedOrigins ? { allowedOrigins: mcpAllowedOrigins } : {}) } }
    : {}),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
