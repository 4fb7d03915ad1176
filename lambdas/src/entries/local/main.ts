/** `npm start`: the local platform (start.ts); `npm start -- --bundled`: the deployed form, the bundles of `cdk synth` (entries/bundled). */
if (process.argv.slice(2).includes('--bundled')) await import('../bundled/main');
else await import('./start');

export {};
