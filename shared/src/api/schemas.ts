export * from './primitives';
export * from './agents';
export * from './records';
export * from './account';
export * from './auth';
export * from './people';
export * from './conversations';
