import en from 'zod/v4/locales/en.js';

/** The `z` namespace of `zod/v4-mini` in a Lambda bundle (see zod-v4-mini.ts): zod's mini API, `locales` English alone. */
export * from '../../../node_modules/zod/v4/mini/external.js';
export * as core from './zod-v4-core';
export const locales = Object.freeze({ en });
