export * from './primitives';
export * from './agents';
export * from './run-steps';
export * from './records';
export * from './account';
export * from './auth';
export * from './people';
export * from './conversations';
