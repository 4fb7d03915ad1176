export * from './errors';
export * from './envelope';
export * from './ids';
export * from './tables';
export * from './presets';
export * from './api/endpoints';
export * from './api/output-schema';
export * as schemas from './api/schemas';
export { JSON_INPUT_LIMITS, jsonInputProblem } from './api/json-input';
