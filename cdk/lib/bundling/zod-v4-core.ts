import en from 'zod/v4/locales/en.js';

/**
 * What a Lambda bundle gets for `import ... from 'zod/v4/core'` (LAMBDA_BUNDLING aliases it here), and the `core` of
 * the `z` namespace (zod-v4-namespace.ts): zod's own core module (by path, the very file `zod/v4/core` resolves to),
 * whose namespace would otherwise carry every locale through its `locales`; here `locales` holds English alone.
 */
export * from '../../../node_modules/zod/v4/core/index.js';
export const locales = Object.freeze({ en });
// zod's compiler and JSON Schema to zod converter, which nothing in a bundle calls (zod-compile-absent.ts).
export { compile, compileFn, withParser, INVALID, ZodCompileAsyncError, ZodCompileUnsupportedError } from './zod-compile-absent';
