import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { conditionalWrite, entity, putNew, queryAll } from './core';
import { faultKey, faultPrefix, faultsPartition } from './keys';

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

const faultItem = /* @__PURE__ */ entity<Fault>({ key: (fault) => faultKey(fault.hubId, fault.id) });

/** Fault ids are random, so an existing one is a bug of the caller: it throws. */
export async function insertFault(fault: Fault): Promise<void> {
  if (!(await putNew(faultItem.item(fault)))) throw new Error(`fault ${fault.id} exists`);
}

/** The account's faults with calls left to answer, oldest first (ids are time-ordered). One Query of a small partition. */
export async function listFaults(hubId: number): Promise<Fault[]> {
  return (await queryAll(faultsPartition(hubId), faultPrefix))
    .map((item) => faultItem.read(item))
    .filter((fault) => fault.remaining > 0);
}

/**
 * Takes one call of the fault: its remaining count goes down by one on condition that one is left,
 * so concurrent calls take each count exactly once. The fault as it is after, or undefined when
 * none was left (or it was deleted).
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
  return outcome.written && outcome.attributes ? faultItem.read(outcome.attributes) : undefined;
}

/** Removes a fault whose calls are all taken (on condition that none is left), so the account's Query stays small. */
export async function deleteSpentFault(hubId: number, faultId: string): Promise<void> {
  await conditionalWrite(
    new DeleteCommand({
      TableName: tableName,
      Key: faultKey(hubId, faultId),
      ConditionExpression: 'remaining <= :zero',
      ExpressionAttributeValues: { ':zero': 0 },
    }),
  );
}

/** False when there was no such fault. */
export async function deleteFault(hubId: number, faultId: string): Promise<boolean> {
  const result = await db.send(
    new DeleteCommand({ TableName: tableName, Key: faultKey(hubId, faultId), ReturnValues: 'ALL_OLD' }),
  );
  return result.Attributes !== undefined;
}
