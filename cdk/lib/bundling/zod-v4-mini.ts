import * as z from './zod-v4-mini-namespace';

/** What a Lambda bundle gets for `import ... from 'zod/v4-mini'` (LAMBDA_BUNDLING aliases it here): see zod-v4.ts. */
export * from './zod-v4-mini-namespace';
export { z };
