import { startLocalWebhooks, type LocalWebhooks } from '../../local/local-webhooks';

/**
 * The table's stream consumers as the local runtime runs them (webhooks, the journal, the
 * association limit tracker and the lists' association sync), polled every 50 ms from the stream's
 * tip, for the changes of the accounts in `hubs` only (the test adds its accounts as it makes them).
 * `settle()` reads the stream up to now.
 */
export function startTestStream(hubs: ReadonlySet<number>): Promise<LocalWebhooks> {
  return startLocalWebhooks({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
    pollIntervalMs: 50,
    acceptsHub: (hubId) => hubs.has(hubId),
    startAtTip: true,
  });
}
