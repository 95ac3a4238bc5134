import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client';
import { countChange } from './counters';
import {
  conditionalWrite,
  queryAll,
  queryPages,
  transact,
  type TransactItem,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import { faultCountKey, faultKey, faultPrefix, faultsPartition } from './keys';
import { holdModeOf, isWriteHoldItem, type WriteHoldMode } from './write-guard';

/** A fault injected into a test account's API calls (shared/sandbox/faults.ts says what each field means). */
export interface Fault {
  id: string;
  hubId: number;
  method?: string;
  path: string;
  status: number;
  count: number;
  remaining: number;
  policyName?: string;
  delayMs?: number;
  createdAt: string;
}

const faultItem: Entity<Fault> = { key: (fault) => faultKey(fault.hubId, fault.id) };

/** The count item's change that goes with putting (+1) or removing (-1) a fault item. */
const faultCountChange = (hubId: number, delta: 1 | -1, max?: number): TransactItem =>
  countChange({ key: faultCountKey(hubId), attribute: 'faults', delta, ...(max === undefined ? {} : { max }) });

/**
 * Puts the fault and counts it in one transaction, on condition that the account holds fewer than
 * `max` fault items: concurrent creates never pass the cap. 'full' when it holds `max` already.
 * Fault ids are random, so an existing one is a bug of the caller: it throws.
 */
export async function insertFault(fault: Fault, max: number): Promise<'created' | 'full'> {
  const outcome = await transact([
    { role: 'count', write: faultCountChange(fault.hubId, 1, max) },
    {
      role: 'fault',
      write: {
        Put: { TableName: tableName, Item: itemOf(faultItem, fault), ConditionExpression: 'attribute_not_exists(pk)' },
      },
    },
  ]);
  if (outcome.committed) return 'created';
  if (outcome.reasons.length === 1 && outcome.reasons[0]?.role === 'count') return 'full';
  throw outcome.error;
}

/** Every fault item of the account, spent ones too, oldest first (ids are time-ordered). One Query of a partition of at most the cap's items. */
async function listFaultItems(hubId: number): Promise<Fault[]> {
  return (await queryAll(faultsPartition(hubId), faultPrefix)).map((item) => recordOf(faultItem, item));
}

/**
 * What a call of a test account's token must know before it runs, in one Query of the account's
 * faults partition: its faults with calls left (oldest first), and its write hold's mode when a
 * reset or delete holds it (write-guard.ts).
 */
export async function findFaultGate(hubId: number): Promise<{ faults: Fault[]; hold?: WriteHoldMode }> {
  const faults: Fault[] = [];
  let hold: WriteHoldMode | undefined;
  for await (const page of queryPages({ pk: faultsPartition(hubId) }))
    for (const item of page) {
      if (isWriteHoldItem(item)) hold = holdModeOf(item);
      else if (String(item.sk).startsWith(faultPrefix)) {
        const fault = recordOf(faultItem, item);
        if (fault.remaining > 0) faults.push(fault);
      }
    }
  return { faults, ...(hold ? { hold } : {}) };
}

/** The account's faults with calls left to answer, oldest first. */
export async function listFaults(hubId: number): Promise<Fault[]> {
  return (await listFaultItems(hubId)).filter((fault) => fault.remaining > 0);
}

/**
 * Takes one call of the fault: its remaining count goes down by one on condition that one is left,
 * so concurrent calls take each count exactly once. The fault as it is after, or undefined when
 * none was left (or it was deleted). A spent fault stays until a create reclaims its place.
 */
export async function takeFault(hubId: number, faultId: string): Promise<Fault | undefined> {
  const outcome = await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: faultKey(hubId, faultId),
      UpdateExpression: 'SET remaining = remaining - :one',
      ConditionExpression: 'attribute_exists(pk) AND remaining > :zero',
      ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return outcome.written && outcome.attributes ? recordOf(faultItem, outcome.attributes) : undefined;
}

/** Removes the fault item and uncounts it, on condition (`remaining <= 0` for a spent one); false when the condition failed. */
async function removeFaultItem(hubId: number, faultId: string, condition: 'exists' | 'spent'): Promise<boolean> {
  const outcome = await transact([
    {
      role: 'fault',
      write: {
        Delete: {
          TableName: tableName,
          Key: faultKey(hubId, faultId),
          ...(condition === 'spent'
            ? { ConditionExpression: 'remaining <= :zero', ExpressionAttributeValues: { ':zero': 0 } }
            : { ConditionExpression: 'attribute_exists(pk)' }),
        },
      },
    },
    { role: 'count', write: faultCountChange(hubId, -1) },
  ]);
  if (outcome.committed) return true;
  if (outcome.reasons.every((reason) => reason.role === 'fault' && reason.code === 'ConditionalCheckFailed'))
    return false;
  throw outcome.error;
}

/** Removes the account's spent faults (at most the cap's items, one transaction each); how many it removed. */
export async function reclaimSpentFaults(hubId: number): Promise<number> {
  let removed = 0;
  for (const fault of await listFaultItems(hubId))
    if (fault.remaining <= 0 && (await removeFaultItem(hubId, fault.id, 'spent'))) removed += 1;
  return removed;
}

/** False when there was no such fault. */
export async function deleteFault(hubId: number, faultId: string): Promise<boolean> {
  return removeFaultItem(hubId, faultId, 'exists');
}
