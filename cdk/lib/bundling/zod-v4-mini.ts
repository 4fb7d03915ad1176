import * as z from './zod-v4-mini-namespace';

/**
 * What a Lambda bundle gets for `import ... from 'zod/v4-mini'` (LAMBDA_BUNDLING aliases it here): the MCP SDK imports
 * it as a namespace (`import * as z4mini`), which would keep every zod locale; see zod-v4.ts.
 */
export * from './zod-v4-mini-namespace';
export { z };
