/**
 * The shims of `@modelcontextprotocol/server` (its `_shims` export, chosen by export condition), as the Lambda bundles
 * take them: Node's `process`, as its Node shims export, and as the default validator the one its Cloudflare Workers
 * shims export (the package's own, on @cfworker/json-schema) instead of the Ajv copy inside its Node shims.
 */
export { default as process } from 'node:process';
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
