/**
 * zod's opt-in compiler (`z.compile`, `withParser`, core's `compileFn`: about 29 KB) and its JSON Schema to zod
 * converter (`z.fromJSONSchema`, about 12 KB) as a Lambda bundle has them: the zod namespaces of the bundles
 * (zod-v4-namespace.ts, zod-v4-mini-namespace.ts, zod-v4-core.ts) shadow zod's own exports with these. No module the
 * bundles carry calls either (cdk/test/bundle-stand-ins.test.ts scans every module of every bundle): parsing never
 * needs the compiler (zod's parse.js mirrors its sentinels so as not to import it), and the AI SDK and the MCP SDK
 * convert zod to JSON Schema, never back. A call fails with the reason; the sentinel and the error classes keep their
 * identity (the same global symbol, classes of the same names).
 */
function absent(api: string): never {
  throw new Error(`zod's ${api} is not part of this Lambda bundle (cdk/lib/bundling/zod-compile-absent.ts)`);
}

export const compile = (): never => absent('compile');
export const compileFn = (): never => absent('compileFn');
export const withParser = (): never => absent('withParser');
export const fromJSONSchema = (): never => absent('fromJSONSchema');
export const INVALID: unique symbol = Symbol.for('zod.compile.invalid') as never;
export class ZodCompileAsyncError extends Error {
  override name = 'ZodCompileAsyncError';
}
export class ZodCompileUnsupportedError extends Error {
  override name = 'ZodCompileUnsupportedError';
}
