import { tableName } from './client';
import { countChange } from './counters';
import {
  batchGetAll,
  getItem,
  itemBytes,
  queryAll,
  queryPages,
  transact,
  type RoleWrite,
  type TransactItem,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import { withoutKeys } from './item';
import {
  hubPartition,
  pipelineAuditKey,
  pipelineAuditPrefix,
  pipelineCountKey,
  pipelineKey,
  pipelinePrefix,
  stageAuditKey,
  stageAuditPrefix,
} from './keys';

/**
 * The pipelines of one object type in one account. Storage rule: until the type's first change an
 * account has none stored and its pipelines are the type's defaults. The first change writes, in its
 * own transaction, every default (as it is, or as changed) and the type's count item, each on
 * condition that it does not exist yet: of two first changes racing, one commits and the other's
 * transaction is canceled whole, and it is retried against what is stored. A pipeline item is never
 * deleted (archiving marks it), so "no item" for a default id means "not stored yet".
 */
export interface StoredStage {
  id: string;
  label: string;
  displayOrder: number;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

export interface StoredPipeline {
  id: string;
  label: string;
  displayOrder: number;
  /** Live stages only: archiving a stage removes it (its audit entries stay). */
  stages: StoredStage[];
  archived: boolean;
  archivedAt?: string;
  createdAt: string;
  updatedAt: string;
  /** Moves with every change: each change is written on condition of the revision it read (0: never stored). */
  revision: number;
}

/** A change as an audit entry shows it (PublicAuditInfo without the account, which the key holds). */
export interface PipelineAuditEntry {
  pipelineId: string;
  /** Set for a change of one stage: the entry is also listed by the stage's audit. */
  stageId?: string;
  action: 'CREATE' | 'UPDATE' | 'DELETE';
  message: string;
  timestamp: string;
  fromUserId: number;
  rawObject: unknown;
}

const pipelineItem: Entity<StoredPipeline, { hubId: number; objectTypeId: string }> = {
  key: (pipeline, scope) => pipelineKey(scope.hubId, scope.objectTypeId, pipeline.id),
};

/** What one pipeline's item takes in the table (core.itemBytes), to refuse one too large before writing it. */
export function pipelineItemBytes(hubId: number, objectTypeId: string, pipeline: StoredPipeline): number {
  return itemBytes(itemOf(pipelineItem, pipeline, { hubId, objectTypeId }));
}

export async function findPipeline(
  hubId: number,
  objectTypeId: string,
  pipelineId: string,
): Promise<StoredPipeline | undefined> {
  const item = await getItem(pipelineKey(hubId, objectTypeId, pipelineId));
  return item ? recordOf(pipelineItem, item) : undefined;
}

/** Every stored pipeline of the type, archived ones too; none before the type's first change. */
/**
 * The count of live pipelines of each type, from each type's count item (one BatchGetItem):
 * undefined for a type with no count item, which has had no change and holds its defaults.
 */
export async function readLivePipelineCounts(
  hubId: number,
  objectTypeIds: readonly string[],
): Promise<Map<string, number | undefined>> {
  const typeOfSk = new Map(objectTypeIds.map((id) => [pipelineCountKey(hubId, id).sk, id]));
  const counts = new Map<string, number | undefined>(objectTypeIds.map((id) => [id, undefined]));
  const items = await batchGetAll(
    objectTypeIds.map((id) => pipelineCountKey(hubId, id)),
    { attributes: ['livePipelines'], consistent: false },
  );
  for (const item of items) {
    const typeId = typeOfSk.get(String(item.sk));
    if (typeId !== undefined && typeof item.livePipelines === 'number') counts.set(typeId, item.livePipelines);
  }
  return counts;
}

export async function listPipelines(hubId: number, objectTypeId: string): Promise<StoredPipeline[]> {
  return (await queryAll(hubPartition(hubId), pipelinePrefix(objectTypeId))).map((item) =>
    recordOf(pipelineItem, item),
  );
}

export interface PipelineWrite {
  /** The pipeline as it is to be stored. */
  pipeline: StoredPipeline;
  /** The stored revision the change was computed from; 0 when nothing is stored under its id. */
  expectedRevision: number;
  /**
   * The type's first change: the other defaults to store beside it (each must not exist) and the
   * count of live pipelines after the change, which starts the count item (it must not exist).
   */
  firstChange?: { otherDefaults: readonly StoredPipeline[]; livePipelines: number };
  /** Otherwise, how the count of live pipelines moves (create, archive, restore), held under `maxLivePipelines`. */
  livePipelinesDelta?: number;
  maxLivePipelines: number;
  audit: readonly PipelineAuditEntry[];
  nowMs: number;
}

/**
 * - 'saved': committed.
 * - 'stale': what was read changed meanwhile (another change, or another first change): read again.
 * - 'id-taken': a pipeline to be created exists under that id.
 * - 'not-stored-yet': a count change found no count item: the type has had no change; retry as its first.
 * - 'too-many': the type already has `maxLivePipelines` live pipelines.
 */
export type PipelineWriteOutcome = 'saved' | 'stale' | 'id-taken' | 'not-stored-yet' | 'too-many';

type Role = 'pipeline' | 'default' | 'count' | 'audit';

function countWrite(hubId: number, objectTypeId: string, write: PipelineWrite): TransactItem | undefined {
  const key = pipelineCountKey(hubId, objectTypeId);
  if (write.firstChange) {
    return {
      Put: {
        TableName: tableName,
        Item: { ...key, livePipelines: write.firstChange.livePipelines },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }
  const delta = write.livePipelinesDelta ?? 0;
  if (delta === 0) return undefined;
  return countChange({
    key,
    attribute: 'livePipelines',
    delta,
    max: write.maxLivePipelines,
    itemMustExist: true,
    returnOldOnFailure: true,
  });
}

/** One change of one pipeline in one transaction: the pipeline, the count when it moves, the defaults on the first change, and the audit entries. */
export async function writePipeline(
  hubId: number,
  objectTypeId: string,
  write: PipelineWrite,
): Promise<PipelineWriteOutcome> {
  const scope = { hubId, objectTypeId };
  const pipelineCondition =
    write.expectedRevision === 0
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: 'revision = :expected',
          ExpressionAttributeValues: { ':expected': write.expectedRevision },
        };
  const writes: RoleWrite<Role>[] = [
    {
      role: 'pipeline',
      write: { Put: { TableName: tableName, Item: itemOf(pipelineItem, write.pipeline, scope), ...pipelineCondition } },
    },
    ...(write.firstChange?.otherDefaults ?? []).map(
      (pipeline): RoleWrite<Role> => ({
        role: 'default',
        write: {
          Put: {
            TableName: tableName,
            Item: itemOf(pipelineItem, pipeline, scope),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      }),
    ),
    ...write.audit.flatMap((entry, index): RoleWrite<Role>[] => {
      const entryId = `${write.nowMs.toString(36)}${index}${Math.random().toString(36).slice(2, 10)}`;
      const { revision } = write.pipeline;
      const keys = [
        pipelineAuditKey(hubId, objectTypeId, entry.pipelineId, revision, entryId),
        ...(entry.stageId === undefined
          ? []
          : [stageAuditKey(hubId, objectTypeId, entry.stageId, write.nowMs, revision, entryId)]),
      ];
      return keys.map((key) => ({
        role: 'audit',
        write: { Put: { TableName: tableName, Item: { ...key, ...entry } } },
      }));
    }),
  ];
  const count = countWrite(hubId, objectTypeId, write);
  if (count) writes.push({ role: 'count', write: count });
  const outcome = await transact(writes);
  if (outcome.committed) return 'saved';
  const failed = outcome.reasons.filter((reason) => reason.code === 'ConditionalCheckFailed');
  const countFailure = failed.find((reason) => reason.role === 'count');
  if (countFailure && !write.firstChange) return countFailure.item ? 'too-many' : 'not-stored-yet';
  if (failed.some((reason) => reason.role === 'pipeline') && write.expectedRevision === 0 && !write.firstChange)
    return 'id-taken';
  if (failed.length > 0 || outcome.reasons.some((reason) => reason.code === 'TransactionConflict')) return 'stale';
  throw outcome.error;
}

/**
 * Audit entries, newest first, at most `max`: of one pipeline (every change of it and of its stages),
 * or of one stage id (its stage-level changes, in whichever pipeline of the type).
 */
export async function listAuditEntries(
  hubId: number,
  objectTypeId: string,
  target: { pipelineId: string } | { stageId: string },
  max: number,
): Promise<PipelineAuditEntry[]> {
  const skPrefix =
    'pipelineId' in target
      ? pipelineAuditPrefix(objectTypeId, target.pipelineId)
      : stageAuditPrefix(objectTypeId, target.stageId);
  const entries: PipelineAuditEntry[] = [];
  for await (const page of queryPages({ pk: hubPartition(hubId), skPrefix, pageSize: max })) {
    entries.push(...page.map((item) => withoutKeys<PipelineAuditEntry>(item)));
    if (entries.length >= max) break;
  }
  return entries.slice(0, max);
}
