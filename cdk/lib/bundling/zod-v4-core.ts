import en from 'zod/v4/locales/en.js';

/**
 * What a Lambda bundle gets for `import ... from 'zod/v4/core'` (LAMBDA_BUNDLING aliases it here), and the `core` of
 * the `z` namespaces: zod's own core module (by path, the very file `zod/v4/core` resolves to), whose namespace would
 * otherwise carry every locale through its `locales`; here `locales` holds English alone, the locale zod sets itself.
 */
export * from '../../../node_modules/zod/v4/core/index.js';
export const locales = Object.freeze({ en });
