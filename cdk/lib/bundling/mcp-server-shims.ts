/**
 * The Node shims of `@modelcontextprotocol/server` (its `_shims` export), as the Lambda bundles take them: the same
 * `process`, and JSON Schema validation on @cfworker/json-schema (the package's own Cloudflare Workers validator)
 * instead of the Ajv copy its Node shim carries inside its own dist (about 140 KB, which the `ajv` alias cannot reach).
 */
export { default as process } from 'node:process';
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
