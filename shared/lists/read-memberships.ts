import { batchErrorOf, envelope, type BatchError, type BatchResponse } from '../base/batch-results';
import { nowMs } from '../base/clock';
import { ValidationError } from '../base/errors';
import { mapConcurrently } from '../base/map-concurrently';
import { findLists, membershipPage, recordMemberships } from '../db/lists';
import { listJoinForm } from '../db/keys';
import { listLimits } from './list-limits';
import { requireListObjectType } from './list-types';
import { requireActiveList } from './manage-lists';

export interface MembershipPageQuery {
  after?: string;
  before?: string;
  limit?: number;
}

const cursorPatterns = { id: /^[0-9]{1,30}$/, joined: /^[0-9]{13}-[0-9]{1,30}$/ } as const;

/**
 * A page of a list's members by record id or by join order: ascending after a cursor (or from the
 * start), descending before one when only `before` is given. Cursors: the record id, or for the
 * join order `<joined ms, 13 digits>-<record id>`.
 */
export async function listMembershipsPage(
  hubId: number,
  listId: string,
  order: 'id' | 'joined',
  query: MembershipPageQuery,
) {
  const limit = query.limit ?? listLimits.defaultPageSize;
  if (!Number.isInteger(limit) || limit < 1 || limit > listLimits.maxPageSize)
    throw new ValidationError(`limit is 1 to ${listLimits.maxPageSize}`, { context: { limit: [String(limit)] } });
  for (const field of ['after', 'before'] as const) {
    const value = query[field];
    if (value !== undefined && !cursorPatterns[order].test(value))
      throw new ValidationError(`${field} is not a cursor of this page`, { context: { [field]: [value] } });
  }
  const list = await requireActiveList(hubId, listId);
  const toForm = (cursor: string | undefined) => (order === 'id' ? cursor : cursor?.replace('-', '#'));
  const after = toForm(query.after);
  const before = after === undefined ? toForm(query.before) : undefined;
  const page = await membershipPage(hubId, listId, { order, after, before, limit });
  const cursorOf = (member: { recordId: string; joinedAtMs: number }) =>
    order === 'id' ? member.recordId : listJoinForm(member.joinedAtMs, member.recordId).replace('#', '-');
  const first = page.memberships[0];
  const last = page.memberships.at(-1);
  const isDescending = before !== undefined;
  const next = isDescending ? first : page.hasMore ? last : undefined;
  const prev = isDescending ? (page.hasMore ? last : undefined) : after !== undefined ? first : undefined;
  const paging = {
    ...(next ? { next: { after: cursorOf(next) } } : {}),
    ...(prev ? { prev: { before: cursorOf(prev) } } : {}),
  };
  return {
    results: page.memberships.map((member) => ({
      recordId: member.recordId,
      membershipTimestamp: new Date(member.joinedAtMs).toISOString(),
    })),
    ...(Object.keys(paging).length > 0 ? { paging } : {}),
    total: list.size,
  };
}

/** The lists (not deleted) a record is a member of (RecordListMembership). */
export async function recordListMemberships(hubId: number, objectTypeId: string, recordId: string) {
  const memberships = await recordMemberships(hubId, objectTypeId, recordId);
  const lists = new Map(
    (
      await findLists(
        hubId,
        memberships.map((membership) => membership.listId),
      )
    ).map((list) => [list.listId, list]),
  );
  return memberships.flatMap((membership) => {
    const list = lists.get(membership.listId);
    if (!list || list.deletedAt !== undefined) return [];
    const joined = new Date(membership.joinedAtMs).toISOString();
    return [
      {
        listId: membership.listId,
        listVersion: list.listVersion,
        firstAddedTimestamp: joined,
        lastAddedTimestamp: joined,
        isPublicList: true,
      },
    ];
  });
}

/** Several records' memberships: one Query each, at most maxRecordsPerBatchRead records. */
/**
 * The memberships of each record named, in the order named, a few reads at a time (at most 100
 * inputs, one Query and one BatchGetItem each). An input whose objectTypeId names no type lists take
 * is an error of the answer (`errors`, a 207), the others answered beside it.
 */
export async function batchRecordListMemberships(
  hubId: number,
  inputs: readonly { objectTypeId: string; recordId: string }[],
): Promise<{ statusCode: 200 | 207; body: BatchResponse<unknown> }> {
  const startedAt = new Date(nowMs()).toISOString();
  const types = new Map<string, Promise<unknown>>();
  const typeOf = (objectTypeId: string) => {
    const known = types.get(objectTypeId) ?? requireListObjectType(hubId, objectTypeId, 'objectTypeId');
    types.set(objectTypeId, known);
    return known;
  };
  type Outcome = { result: unknown } | { error: BatchError };
  const outcomes = await mapConcurrently(inputs, 8, async (input): Promise<Outcome> => {
    try {
      await typeOf(input.objectTypeId);
    } catch (error) {
      return { error: batchErrorOf(error) };
    }
    return {
      result: {
        ...input,
        recordListMemberships: await recordListMemberships(hubId, input.objectTypeId, input.recordId),
      },
    };
  });
  const results = outcomes.flatMap((outcome) => ('result' in outcome ? [outcome.result] : []));
  const errors = outcomes.flatMap((outcome) => ('error' in outcome ? [outcome.error] : []));
  return { statusCode: errors.length > 0 ? 207 : 200, body: envelope(startedAt, results, errors) };
}
