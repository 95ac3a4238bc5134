import { NotFoundError, ValidationError } from '../base/errors';
import { findList, findLists, firstListId, type StoredList } from '../db/lists';
import { isGone } from './list-lifetime';

/**
 * A list's legacy (v1) id follows from its id: the list ids come from one sequence from 200000001,
 * and the legacy id is the list's place in it (200000001 is legacy 1). Every list has one, from its
 * creation on, and a translation reads the list's own item: no claim item, no write at create.
 */
const legacyOffset = firstListId - 1;

export const legacyListIdOf = (listId: string): string => String(Number(listId) - legacyOffset);

/** The list id a legacy id names, or undefined when it is not one (not a positive integer, or past the ids a list can have). */
function listIdOfLegacy(legacyListId: string): string | undefined {
  if (!/^[1-9][0-9]{0,11}$/.test(legacyListId)) return undefined;
  const listId = String(Number(legacyListId) + legacyOffset);
  return listId.length <= 12 ? listId : undefined;
}

/** A list a legacy id may name: of the account, and not gone (a deleted list maps while it can be restored). */
const isMappable = (list: StoredList | undefined): list is StoredList => list !== undefined && !isGone(list);

export async function translateLegacyListId(hubId: number, legacyListId: string | undefined) {
  if (legacyListId === undefined || legacyListId === '')
    throw new ValidationError('legacyListId names the legacy list id to translate', {
      context: { legacyListId: [legacyListId ?? ''] },
    });
  const listId = listIdOfLegacy(legacyListId);
  const list = listId === undefined ? undefined : await findList(hubId, listId);
  if (!isMappable(list))
    throw new NotFoundError(`No list has the legacy id ${legacyListId}`, { context: { legacyListId: [legacyListId] } });
  return { legacyListId, listId: list.listId };
}

/** Several legacy ids (at most 10,000, checked by the schema): one BatchGetItem per 100 distinct ids. */
export async function translateLegacyListIds(hubId: number, legacyListIds: readonly string[]) {
  const wanted = [...new Set(legacyListIds)];
  const listIds = new Map(wanted.map((legacyListId) => [legacyListId, listIdOfLegacy(legacyListId)]));
  const known = [...listIds.values()].filter((listId): listId is string => listId !== undefined);
  const found = new Map((await findLists(hubId, known)).filter(isMappable).map((list) => [list.listId, list]));
  const legacyListIdsToIdsMapping: { legacyListId: string; listId: string }[] = [];
  const missingLegacyListIds: string[] = [];
  for (const legacyListId of wanted) {
    const listId = listIds.get(legacyListId);
    if (listId !== undefined && found.has(listId)) legacyListIdsToIdsMapping.push({ legacyListId, listId });
    else missingLegacyListIds.push(legacyListId);
  }
  return { legacyListIdsToIdsMapping, missingLegacyListIds };
}
