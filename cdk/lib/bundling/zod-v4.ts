import * as z from './zod-v4-namespace';

/**
 * What a Lambda bundle gets for `import ... from 'zod/v4'` (LAMBDA_BUNDLING aliases it here). The AI SDK providers
 * import `{ z } from 'zod/v4'`: a namespace object, which esbuild cannot tree-shake, so it kept all 40-odd of zod's
 * locales (about 260 KB) in every bundle that reaches a provider. This namespace is zod's own, except that `locales`
 * offers English only (zod-v4-namespace.ts); the error messages are the same English ones, nothing else differs.
 */
export * from './zod-v4-namespace';
export { z, z as default };
