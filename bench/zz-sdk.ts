import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { startDynaliteProcess } from './dynalite-process';
import { createStore } from '../lambdas/src/infra/store/dynamo';
import { ensureTables } from '../lambdas/src/infra/store/bootstrap';
const d = await startDynaliteProcess();
const store = createStore({ tablePrefix: 'b', region: 'local', endpoint: d.endpoint });
await ensureTables(store.raw, 'b');
const t = store.table('runs');
await store.doc.send(new PutCommand({ TableName: t, Item: { runId: 'x', status: 'queued', instruction: 'hello '.repeat(20) } }));
for (const conc of [1, 8]) {
  for (let round = 0; round < 2; round++) {
    const n = 2000;
    const c0 = process.cpuUsage(); const s0 = await d.cpuUsage(); const t0 = performance.now();
    let i = 0;
    await Promise.all(Array.from({ length: conc }, async () => { while (i++ < n) await store.doc.send(new GetCommand({ TableName: t, Key: { runId: 'x' }, ConsistentRead: true })); }));
    const el = performance.now() - t0; const c = process.cpuUsage(c0); const s1 = await d.cpuUsage();
    console.log(`conc ${conc}: ${(n / el * 1000).toFixed(0)}/s client CPU ${((c.user + c.system) / 1000 / n).toFixed(3)} ms (sys ${(c.system/1000/n).toFixed(3)}) store CPU ${((s1.user + s1.system - s0.user - s0.system) / 1000 / n).toFixed(3)} ms`);
  }
}
await d.stop(); process.exit(0);
