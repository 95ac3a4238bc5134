import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { searchFormsOf, type SearchableCompany, type SearchForms } from '../search/search-forms';
import { db, tableName } from './client';
import { companyKey, companyListPrefix, companySearchKey, companySearchPartition, companySearchShards } from './keys';

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/**
 * The projection item of an active company, written in the same TransactWriteItems as the
 * company itself (shared/db/companies.ts saveCompany), so a search never sees it drift.
 * `r` is the record's version: the backfill only writes over older projections.
 */
export function searchProjectionPut(hubId: number, company: SearchableCompany & { version: number }): TransactItem {
  const { id, ...forms } = searchFormsOf(company);
  return { Put: { TableName: tableName, Item: { ...companySearchKey(hubId, id), r: company.version, ...forms } } };
}

/** An archived company leaves the projection in the transaction that archives it. */
export function searchProjectionDelete(hubId: number, companyId: string): TransactItem {
  return { Delete: { TableName: tableName, Key: companySearchKey(hubId, companyId) } };
}

/** What DynamoDB evaluates: the filter it can, and only the forms the search needs back. */
export interface ProjectionQuery {
  filterExpression?: string;
  projectionExpression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

export interface ProjectionScan {
  forms: SearchForms[];
  /** Query calls made, over all shards and pages. */
  queries: number;
}

/**
 * Reads the hub's projection: one Query chain per shard, the shards in parallel, strongly
 * consistent (a write acknowledged before is seen). Items the filter drops cost read capacity
 * but are neither sent nor parsed. Throws when `deadlineMs` (performance.now()) passes.
 */
export async function scanSearchProjection(hubId: number, query: ProjectionQuery, deadlineMs: number): Promise<ProjectionScan> {
  let queries = 0;
  const hasValues = Object.keys(query.values).length > 0;
  const shardForms = await Promise.all(Array.from({ length: companySearchShards }, async (_, shard) => {
    const forms: SearchForms[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      if (performance.now() > deadlineMs) throw Object.assign(new Error('search deadline passed'), { name: 'SearchDeadlineError' });
      const page = await db.send(new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :searchPartition',
        ...(query.filterExpression ? { FilterExpression: query.filterExpression } : {}),
        ProjectionExpression: query.projectionExpression,
        ExpressionAttributeNames: query.names,
        ExpressionAttributeValues: { ...(hasValues ? query.values : {}), ':searchPartition': companySearchPartition(hubId, shard) },
        ExclusiveStartKey: startKey,
        ConsistentRead: true,
      }));
      queries += 1;
      for (const item of page.Items ?? []) {
        forms.push({ id: String(item.sk), v: (item.v ?? {}) as Record<string, string>, l: (item.l ?? {}) as Record<string, string>, n: (item.n ?? {}) as Record<string, string> });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return forms;
  }));
  return { forms: shardForms.flat(), queries };
}

/**
 * Writes the projection of every active company of the hub that lacks a current one (data written
 * before the projection existed). Each projection is written with a check that the company still
 * has the version it was built from, 25 companies per transaction, so a concurrent write or
 * archive is never overwritten with an older state.
 */
export async function backfillSearchProjection(hubId: number): Promise<{ companies: number; written: number }> {
  let startKey: Record<string, unknown> | undefined;
  let companies = 0;
  let written = 0;
  do {
    const page = await db.send(new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': companyKey(hubId, '').pk, ':prefix': companyListPrefix(false) },
      ProjectionExpression: '#id, #properties, #createdAt, #updatedAt, #version',
      ExpressionAttributeNames: { '#id': 'id', '#properties': 'properties', '#createdAt': 'createdAt', '#updatedAt': 'updatedAt', '#version': 'version' },
      ExclusiveStartKey: startKey,
      ConsistentRead: true,
      Limit: 25,
    }));
    const records = (page.Items ?? []) as (SearchableCompany & { version: number })[];
    companies += records.length;
    if (records.length > 0) {
      const items: TransactItem[] = [];
      for (const record of records) {
        items.push({ ConditionCheck: {
          TableName: tableName, Key: companyKey(hubId, record.id),
          ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': record.version },
        } });
        const put = searchProjectionPut(hubId, record).Put;
        if (put) items.push({ Put: { ...put, ConditionExpression: 'attribute_not_exists(pk) OR #r < :version', ExpressionAttributeNames: { '#r': 'r' }, ExpressionAttributeValues: { ':version': record.version } } });
      }
      try {
        await db.send(new TransactWriteCommand({ TransactItems: items }));
        written += records.length;
      } catch (error) {
        // Some company changed meanwhile (and wrote its own projection) or already had a current one:
        // fall back to one transaction per company, skipping those.
        if ((error as { name?: string }).name !== 'TransactionCanceledException') throw error;
        for (let index = 0; index < items.length; index += 2) {
          try {
            await db.send(new TransactWriteCommand({ TransactItems: items.slice(index, index + 2) }));
            written += 1;
          } catch (inner) {
            if ((inner as { name?: string }).name !== 'TransactionCanceledException') throw inner;
          }
        }
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { companies, written };
}
