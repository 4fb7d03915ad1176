import * as z from './zod-v4-namespace';

/**
 * What a Lambda bundle gets for `import ... from 'zod'` and `'zod/v4'` (LAMBDA_BUNDLING aliases them here), shaped as
 * zod's own entry: every export, and the namespace as `z` and default. The AI SDK, its providers and the MCP SDK
 * import `{ z }`, a namespace esbuild cannot tree-shake; through zod-v4-namespace.ts it carries English alone.
 */
export * from './zod-v4-namespace';
export { z, z as default };
