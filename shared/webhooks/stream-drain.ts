/**
 * The seam through which a flush of the sandbox controls (account-flush.ts) gets the table's stream
 * read up to now before it looks for pending batches. The local runtime (local/local-webhooks.ts)
 * polls DynamoDB Local's stream itself and installs its poll here, so a flush there also sends the
 * changes the poller has not read yet. Deployed there is none: Lambda's event source reads the
 * stream (within about a second, its batching window) and nothing can ask it to hurry, so a flush
 * handles what event generation has already queued.
 */
const drains = new Set<() => Promise<void>>();

/** Installs a drain (one per local webhook runtime of the process); returns its removal. */
export function installStreamDrain(drain: () => Promise<void>): () => void {
  drains.add(drain);
  return () => {
    drains.delete(drain);
  };
}

/** Runs every installed drain: once it resolves, every change committed before the call is queued as batches. */
export async function drainStream(): Promise<void> {
  await Promise.all([...drains].map((drain) => drain()));
}
