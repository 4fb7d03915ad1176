import en from 'zod/v4/locales/en.js';

/**
 * The `z` namespace of `zod/v4` in a Lambda bundle (see zod-v4.ts): every export of zod 4's classic API, from the very
 * module `zod/v4` re-exports (by path: the package does not export this file), with `locales` English alone, here and
 * in `core` (zod-v4-core.ts). English is the locale zod configures itself with.
 */
export * from '../../../node_modules/zod/v4/classic/external.js';
export * as core from './zod-v4-core';
export const locales = Object.freeze({ en });
