import en from 'zod/v4/locales/en.js';

/**
 * The members of the `z` namespace of `zod/v4-mini` in a Lambda bundle (see zod-v4-mini.ts): zod's mini API from its
 * own module, with `core` and `locales` as in zod-v4-namespace.ts (English alone).
 */
export * from '../../../node_modules/zod/v4/mini/external.js';
export * as core from './zod-v4-core';
export const locales = Object.freeze({ en });
// zod's compiler and JSON Schema to zod converter, which nothing in a bundle calls (zod-compile-absent.ts).
export { compile, withParser, INVALID, ZodCompileAsyncError, ZodCompileUnsupportedError } from './zod-compile-absent';
