/**
 * The local webhook runtime (stream poller, in-process queue, delivery) alone in a process of its
 * own, so a test can kill it mid-burst and start it again on the same state folder. Arguments:
 * one JSON object {stateDir, delayScale, hubIds}. The environment is the test run's (table, secrets).
 */
import { startLocalWebhooks } from '../../local/local-webhooks';

const options = JSON.parse(process.argv[2] ?? '{}') as { stateDir: string; delayScale: number; hubIds: number[] };
const hubs = new Set(options.hubIds);

startLocalWebhooks({
  endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
  tableName: process.env.TABLE_NAME ?? '',
  stateDir: options.stateDir,
  delayScale: options.delayScale,
  pollIntervalMs: 50,
  acceptsHub: (hubId) => hubs.has(hubId),
})
  .then(() => {
    console.log('webhook runtime ready');
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
