export * from './primitives';
export * from './agents';
export * from './records';
export * from './account';
