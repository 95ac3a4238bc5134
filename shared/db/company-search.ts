import { queryPages, transact, type Item, type TransactItem } from './core';
import { tableName } from './client';
import { companyKey, companyListPrefix, companySearchKey, companySearchPartition, companySearchShards, hubPartition } from './keys';

/**
 * The searchable forms of a company's values (built by shared/companies/search-forms.ts):
 *   v: the stored value; l: the lower-cased value where it differs; n: an order-preserving string
 *   of the value as a number or instant.
 */
export interface SearchForms {
  id: string;
  v: Record<string, string>;
  l: Record<string, string>;
  n: Record<string, string>;
}

/** What the forms are made from: a company's set values and its computed ones. */
export interface SearchableCompany {
  id: string;
  properties: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/**
 * The projection item of an active company, written in the same TransactWriteItems as the
 * company itself (shared/db/companies.ts saveCompany), so a search never sees it drift.
 * `r` is the record's version: the backfill only writes over older projections.
 */
export function searchProjectionPut(hubId: number, forms: SearchForms, version: number): TransactItem {
  const { id, ...values } = forms;
  return { Put: { TableName: tableName, Item: { ...companySearchKey(hubId, id), r: version, ...values } } };
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
  const shardForms = await Promise.all(Array.from({ length: companySearchShards }, async (_, shard) => {
    const forms: SearchForms[] = [];
    const pages = queryPages({
      pk: companySearchPartition(hubId, shard), filter: query.filterExpression, projection: query.projectionExpression, names: query.names, values: query.values,
    });
    for (;;) {
      if (performance.now() > deadlineMs) throw Object.assign(new Error('search deadline passed'), { name: 'SearchDeadlineError' });
      const page = await pages.next();
      if (page.done) break;
      queries += 1;
      for (const item of page.value) {
        forms.push({ id: String(item.sk), v: (item.v ?? {}) as Record<string, string>, l: (item.l ?? {}) as Record<string, string>, n: (item.n ?? {}) as Record<string, string> });
      }
    }
    return forms;
  }));
  return { forms: shardForms.flat(), queries };
}

/**
 * Writes the projection of every active company of the hub that lacks a current one (data written
 * before the projection existed). Each projection is written with a check that the company still
 * has the version it was built from, 25 companies per transaction, so a concurrent write or
 * archive is never overwritten with an older state. `formsOf` is the domain's form builder.
 */
export async function backfillSearchProjection(hubId: number, formsOf: (company: SearchableCompany) => SearchForms): Promise<{ companies: number; written: number }> {
  let companies = 0;
  let written = 0;
  const pages = queryPages({
    pk: hubPartition(hubId), skPrefix: companyListPrefix(false), pageSize: 25,
    projection: '#id, #properties, #createdAt, #updatedAt, #version',
    names: { '#id': 'id', '#properties': 'properties', '#createdAt': 'createdAt', '#updatedAt': 'updatedAt', '#version': 'version' },
  });
  for await (const page of pages) {
    const records = page as (SearchableCompany & { version: number } & Item)[];
    companies += records.length;
    if (records.length === 0) continue;
    const pairs = records.map((record) => {
      const put = searchProjectionPut(hubId, formsOf(record), record.version).Put;
      return [
        { role: record.id, write: { ConditionCheck: {
          TableName: tableName, Key: companyKey(hubId, record.id),
          ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': record.version },
        } } },
        { role: record.id, write: { Put: { ...put, TableName: tableName, Item: put?.Item ?? {}, ConditionExpression: 'attribute_not_exists(pk) OR #r < :version', ExpressionAttributeNames: { '#r': 'r' }, ExpressionAttributeValues: { ':version': record.version } } } },
      ];
    });
    const outcome = await transact(pairs.flat());
    if (outcome.committed) {
      written += records.length;
      continue;
    }
    // Some company changed meanwhile (and wrote its own projection) or already had a current one:
    // one transaction per company, skipping those.
    for (const pair of pairs) {
      if ((await transact(pair)).committed) written += 1;
    }
  }
  return { companies, written };
}
