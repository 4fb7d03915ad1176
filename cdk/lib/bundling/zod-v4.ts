import { any, array, boolean, enum as enumOf, json, literal, looseObject, number, object, record, strictObject, string, union, unknown, uuid } from './zod-v4-namespace';

/**
 * What a Lambda bundle gets for `import ... from 'zod/v4'` and `'zod'` (LAMBDA_BUNDLING aliases them here): every
 * export of zod's classic API (zod-v4-namespace.ts: zod's own modules, `locales` English alone), and as `z` (and the
 * default export) an object holding the members of zod's `z` namespace that the bundled modules read.
 *
 * The AI SDK, its providers and the MCP SDK import `{ z } from 'zod/v4'`: a namespace object, which esbuild cannot
 * tree-shake, so it kept every export of zod (all 40-odd locales, about 260 KB, until the namespace held English
 * alone; then every schema type and both namespaces `z.core` and `z.iso`, about 40 KB more). The members here are the
 * same functions as zod's own; cdk/test/bundle-stand-ins.test.ts bundles every function for every MODEL kind and checks
 * that `z` is used only by reading one of these members. The trade: a dependency update that reads another member of
 * `z` fails that test until the member is added here (in a bundle it would be undefined).
 */
export * from './zod-v4-namespace';

const zodMembersReadByTheBundles = /* @__PURE__ */ Object.freeze({ any, array, boolean, enum: enumOf, json, literal, looseObject, number, object, record, strictObject, string, union, unknown, uuid });
export { zodMembersReadByTheBundles as z, zodMembersReadByTheBundles as default };
