import en from 'zod/v4/locales/en.js';

/**
 * The exports a Lambda bundle gets for `import ... from 'zod/v4'` (see zod-v4.ts, which also offers `z`): every
 * export of zod 4's classic API (schemas, checks, errors, parse, compat, iso, coerce, the JSON Schema converters),
 * from the very module `zod/v4` re-exports (the repository's one zod, by path: the package does not export this
 * file), so there is one zod in the bundle. Only `locales` differs, here and in `core` (zod-v4-core.ts): it holds
 * English alone, the default locale zod configures itself with (classic/schemas.js registers it when the first schema
 * is built).
 */
export * from '../../../node_modules/zod/v4/classic/external.js';
export * as core from './zod-v4-core';
export const locales = Object.freeze({ en });
// zod's compiler and JSON Schema to zod converter, which nothing in a bundle calls (zod-compile-absent.ts).
export { compile, withParser, fromJSONSchema, INVALID, ZodCompileAsyncError, ZodCompileUnsupportedError } from './zod-compile-absent';
