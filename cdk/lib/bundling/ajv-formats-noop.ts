/**
 * What a Lambda bundle gets for `import addFormats from 'ajv-formats'` (LAMBDA_BUNDLING aliases it here): the
 * validator behind the `ajv` alias (ajv-on-cfworker.ts) checks the standard formats itself.
 */
export default function addFormats<T>(ajv: T): T {
  return ajv;
}
