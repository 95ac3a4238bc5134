import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DescribeTableCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import { localClient } from './dynamodb-local';
import { tableDefinition } from '../shared/db/table';
import { deliverBatch } from '../shared/webhooks/deliver-batch';
import { InProcessDeliveryQueue, installDeliveryQueue } from '../shared/webhooks/delivery-queue';
import { trackAssociationLimits } from '../shared/limits-tracking/association-limit-tracker';
import { syncAssociationLists } from '../shared/lists/association-list-sync';
import type { ListMembershipChange } from '../shared/webhooks/list-membership-changes';
import { processStreamBatch } from '../shared/webhooks/stream-batch';
import { changeRecordsOf, type RawStreamRecord } from '../shared/webhooks/stream-records';
import { installStreamDrain } from '../shared/webhooks/stream-drain';
import { streamBatchingWindowSeconds } from '../shared/webhooks/retry-schedule';

/**
 * Webhooks in the local runtime: the table's stream on DynamoDB Local, polled here, feeds the same
 * event generation and delivery code the deployed functions run; an in-process queue with the
 * same retry schedule stands in for SQS. The same pass feeds the stream's other consumer, the
 * association limit tracker (shared/limits-tracking/association-limit-tracker.ts) and the
 * ASSOCIATION filters' list sync (shared/lists/association-list-sync.ts), as their function does deployed. With a state folder (npm start --data-dir), the stream
 * position and the queued batches are kept in files, so a restart goes on where it stopped.
 */
export interface LocalWebhooksOptions {
  endpoint: string;
  tableName: string;
  stateDir?: string;
  pollIntervalMs?: number;
  /** Below 1 only in tests: retries 30 s apart cannot be waited for there. */
  delayScale?: number;
  /** Only these accounts' changes (a test sharing the table with other test files). */
  acceptsHub?: (hubId: number) => boolean;
  /**
   * A test sharing the table: a shard with no saved position starts at the stream's tip instead of
   * being read to its end, which on a table other tests have written for minutes is hundreds of
   * GetRecords pages. A shard with a position saved in the state folder resumes there. A shard that
   * gave no record yet (its iterator lost, or the runtime stopped) resumes at the tip again.
   */
  startAtTip?: boolean;
  /**
   * Takes each stream batch's list membership changes (shared/webhooks/stream-batch.ts), before the
   * stream position moves: a throw fails the pass, and the next one reads the same records again.
   */
  onListMembershipChanges?: (changes: readonly ListMembershipChange[]) => void | Promise<void>;
}

export interface LocalWebhooks {
  queue: InProcessDeliveryQueue;
  /** Resolves after the stream has been read up to now and every batch due within `horizonMs` is delivered. */
  settle(horizonMs?: number): Promise<void>;
  stop(): Promise<void>;
}

interface Checkpoint {
  streamArn: string;
  /** Set once the shards open at the first start were skipped to their end: from then on nothing is skipped. */
  isPositioned?: boolean;
  /** Shard id -> the last sequence number processed, or 'closed' once the shard is read to its end. */
  shards: Record<string, string>;
}

/** Turns the stream on (an older table, e.g. a persisted --data-dir) and returns its ARN. */
async function ensureStream(endpoint: string, tableName: string): Promise<string> {
  const client = localClient(endpoint);
  try {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
      if (table?.StreamSpecification?.StreamEnabled && table.LatestStreamArn) return table.LatestStreamArn;
      if (attempt === 0) {
        await client.send(
          new UpdateTableCommand({
            TableName: tableName,
            StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamViewType },
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the stream of table ${tableName} did not come up`);
  } finally {
    client.destroy();
  }
}

export async function startLocalWebhooks(options: LocalWebhooksOptions): Promise<LocalWebhooks> {
  const streamArn = await ensureStream(options.endpoint, options.tableName);
  const streams = new DynamoDBStreamsClient({
    endpoint: options.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const checkpointFile = options.stateDir ? path.join(options.stateDir, 'webhook-stream.json') : undefined;
  const saved =
    checkpointFile && existsSync(checkpointFile)
      ? (JSON.parse(readFileSync(checkpointFile, 'utf8')) as Checkpoint)
      : undefined;
  const checkpoint: Checkpoint = saved?.streamArn === streamArn ? saved : { streamArn, shards: {} };
  const iterators = new Map<string, string>();
  const queue = new InProcessDeliveryQueue({
    deliver: (batch, target) => deliverBatch(batch, target),
    stateDir: options.stateDir,
    delayScale: options.delayScale,
  });
  installDeliveryQueue(queue);

  const saveCheckpoint = () => {
    if (!checkpointFile || !options.stateDir) return;
    mkdirSync(options.stateDir, { recursive: true });
    writeFileSync(`${checkpointFile}.tmp`, JSON.stringify(checkpoint));
    renameSync(`${checkpointFile}.tmp`, checkpointFile);
  };

  // Shards change rarely (DynamoDB Local rolls them over after hours): listed at most every 5 s.
  let listedShards: { atMs: number; shards: Shard[] } | undefined;
  async function listShards(): Promise<Shard[]> {
    if (listedShards && Date.now() - listedShards.atMs < 5000) return listedShards.shards;
    const shards = await describeShards();
    listedShards = { atMs: Date.now(), shards };
    return shards;
  }

  async function describeShards(): Promise<Shard[]> {
    const shards: Shard[] = [];
    let start: string | undefined;
    for (let page = 0; page < 100; page += 1) {
      const result = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
      );
      shards.push(...(result.StreamDescription?.Shards ?? []));
      start = result.StreamDescription?.LastEvaluatedShardId;
      if (!start) break;
    }
    return shards;
  }

  /** Shards positioned at their tip at the start (startAtTip), which no record has moved since. */
  const atTip = new Set<string>();

  async function iteratorFor(shard: Shard): Promise<string | undefined> {
    const shardId = shard.ShardId ?? '';
    const last = checkpoint.shards[shardId];
    const type: ShardIteratorType = last ? 'AFTER_SEQUENCE_NUMBER' : atTip.has(shardId) ? 'LATEST' : 'TRIM_HORIZON';
    const result = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: type,
        ...(last ? { SequenceNumber: last } : {}),
      }),
    );
    return result.ShardIterator;
  }

  /**
   * The first start skips what the stream holds from before (changes made before webhooks ran are
   * not sent), reading each shard without a saved position to its end and saving that position. A
   * saved position, not an iterator at the stream's tip, so a restart after a kill resumes exactly there.
   */
  async function skipHistory(): Promise<void> {
    if (options.startAtTip) {
      await skipToTip();
      return;
    }
    for (const shard of await listShards()) {
      const shardId = shard.ShardId;
      if (!shardId || checkpoint.shards[shardId] !== undefined) continue;
      let iterator = await iteratorFor(shard);
      for (let page = 0; iterator && page < 100_000; page += 1) {
        const result = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        const last = result.Records?.at(-1)?.dynamodb?.SequenceNumber;
        if (last) checkpoint.shards[shardId] = last;
        iterator = result.NextShardIterator;
        if ((result.Records ?? []).length === 0) break;
      }
      if (!iterator) checkpoint.shards[shardId] = 'closed';
    }
    checkpoint.isPositioned = true;
    saveCheckpoint();
  }

  /**
   * startAtTip: only the shards without a saved position skip, closed ones as read and open ones
   * to an iterator at their tip. No position is saved for a shard at its tip (only a record gives
   * one), so the checkpoint is not marked positioned and the next start skips such a shard again.
   */
  async function skipToTip(): Promise<void> {
    for (const shard of await listShards()) {
      const shardId = shard.ShardId;
      if (!shardId || checkpoint.shards[shardId] !== undefined) continue;
      if (shard.SequenceNumberRange?.EndingSequenceNumber) {
        checkpoint.shards[shardId] = 'closed';
        continue;
      }
      atTip.add(shardId);
      const iterator = await iteratorFor(shard);
      if (iterator) iterators.set(shardId, iterator);
    }
    saveCheckpoint();
  }

  /** One pass over every open shard whose parent is done; the position moves only after the events are queued. */
  async function pollOnce(): Promise<number> {
    let read = 0;
    for (const shard of await listShards()) {
      const shardId = shard.ShardId;
      if (!shardId || checkpoint.shards[shardId] === 'closed') continue;
      const parent = shard.ParentShardId;
      if (parent && checkpoint.shards[parent] !== undefined && checkpoint.shards[parent] !== 'closed') continue;
      let iterator = iterators.get(shardId) ?? (await iteratorFor(shard));
      for (let page = 0; iterator && page < 20; page += 1) {
        const result = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        const records = result.Records ?? [];
        if (records.length > 0) {
          const changes = changeRecordsOf(records as RawStreamRecord[]);
          // The stream's other consumer first: a failed pass reads the same records again, and the
          // tracker writes nothing for a change it has applied, where events would be queued twice.
          await trackAssociationLimits(changes, { acceptsHub: options.acceptsHub });
          await syncAssociationLists(changes, { acceptsHub: options.acceptsHub });
          const output = await processStreamBatch(changes, queue, { acceptsHub: options.acceptsHub });
          if (output.listMembershipChanges.length > 0)
            await options.onListMembershipChanges?.(output.listMembershipChanges);
          const lastSequence = records.at(-1)?.dynamodb?.SequenceNumber;
          if (lastSequence) checkpoint.shards[shardId] = lastSequence;
          saveCheckpoint();
          read += records.length;
        }
        iterator = result.NextShardIterator;
        if (records.length === 0) break;
      }
      if (iterator) iterators.set(shardId, iterator);
      else {
        iterators.delete(shardId);
        listedShards = undefined;
        checkpoint.shards[shardId] = 'closed';
        saveCheckpoint();
      }
    }
    return read;
  }

  let isStopped = false;
  // Passes never overlap (settle() may ask for one while the loop runs): one iterator, one reader.
  let chain: Promise<unknown> = Promise.resolve();
  const serialized = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work);
    chain = next.catch(() => undefined);
    return next;
  };
  if (!checkpoint.isPositioned) await skipHistory();
  await serialized(() => pollOnce());
  // As deployed: the stream's records gather for the event source's batching window.
  const interval = options.pollIntervalMs ?? streamBatchingWindowSeconds * 1000;
  // The pause between passes ends early on stop, so a long interval does not hold stop() up.
  let wake: (() => void) | undefined;
  const loop = async () => {
    while (!isStopped) {
      await serialized(() => pollOnce()).catch((error: unknown) => {
        // DynamoDB Local busy or restarting: the position did not move, the next pass reads the same records.
        iterators.clear();
        if (!isStopped) console.error('webhook stream poll failed', error);
      });
      if (isStopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, interval);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  const running = loop();
  // A flush of the sandbox controls reads the stream up to now first (shared/webhooks/stream-drain.ts).
  const removeDrain = installStreamDrain(async () => {
    await serialized(() => pollOnce());
  });

  return {
    queue,
    async settle(horizonMs = 0) {
      await serialized(() => pollOnce());
      await queue.idle(horizonMs);
    },
    async stop() {
      isStopped = true;
      removeDrain();
      wake?.();
      await running;
      await queue.stop();
      streams.destroy();
    },
  };
}
