import { createHash } from 'node:crypto';
import { nowMs } from '../base/clock';
import { laterIso, readListCounters, type ListCounters } from '../db/dynamic-lists';
import { conversionDueAtMs } from '../db/list-conversions';
import type { StoredList } from '../db/lists';

/** What a list is on the wire (HubSpot's PublicObjectList). */
export interface PublicList {
  listId: string;
  listVersion: number;
  name: string;
  objectTypeId: string;
  processingType: string;
  processingStatus: string;
  size: number;
  createdAt: string;
  updatedAt: string;
  filtersUpdatedAt: string;
  createdById: string;
  updatedById: string;
  deletedAt?: string;
  membershipSettings?: StoredList['membershipSettings'];
  listPermissions?: StoredList['listPermissions'];
  filterBranch?: unknown;
}

export interface ListViewOptions {
  /** The filters too (`includeFilters=true`; a create and a refilter answer them). */
  includeFilters?: boolean;
}

/**
 * A DYNAMIC list's size and last member times: its item's (set by its evaluation job, none for a
 * list made DYNAMIC) with its size counters', which the record writes move. Other lists' are their item's.
 */
export function withListCounters(list: StoredList, counters: ListCounters | undefined): StoredList {
  if (!counters) return list;
  return {
    ...list,
    size: list.size + counters.size,
    lastRecordAddedAt: laterIso(list.lastRecordAddedAt, counters.lastRecordAddedAt),
    lastRecordRemovedAt: laterIso(list.lastRecordRemovedAt, counters.lastRecordRemovedAt),
  };
}

/** The lists as answered, each DYNAMIC one with its size counters read (one Query each, together). */
export async function withCounters(
  hubId: number,
  lists: readonly StoredList[],
  options: ListViewOptions = {},
): Promise<PublicList[]> {
  return (await countedLists(hubId, lists)).map((list) => publicListOf(list, options));
}

/**
 * The lists with their DYNAMIC ones' counters added (withListCounters), a DYNAMIC list whose
 * scheduled conversion is due answered as converted: MANUAL, `convertedAt` the time it fell due
 * (the first write that names it converts it for real, list-conversion-run.ts).
 */
export async function countedLists(hubId: number, lists: readonly StoredList[]): Promise<StoredList[]> {
  return Promise.all(
    lists.map(async (list) =>
      list.processingType === 'DYNAMIC'
        ? asConvertedWhenDue(withListCounters(list, await readListCounters(hubId, list.listId)))
        : list,
    ),
  );
}

function asConvertedWhenDue(list: StoredList): StoredList {
  const dueAtMs = conversionDueAtMs(list);
  if (dueAtMs === undefined || dueAtMs > nowMs() || !list.conversion) return list;
  return {
    ...list,
    processingType: 'MANUAL',
    conversion: { ...list.conversion, convertedAt: new Date(dueAtMs).toISOString() },
  };
}

export function publicListOf(list: StoredList, options: ListViewOptions = {}): PublicList {
  return {
    listId: list.listId,
    listVersion: list.listVersion,
    name: list.name,
    objectTypeId: list.objectTypeId,
    processingType: list.processingType,
    processingStatus: list.processingStatus,
    size: list.size,
    createdAt: list.createdAt,
    updatedAt: list.updatedAt,
    filtersUpdatedAt: list.filtersUpdatedAt,
    createdById: list.createdById,
    updatedById: list.updatedById,
    ...(list.deletedAt ? { deletedAt: list.deletedAt } : {}),
    ...(list.membershipSettings ? { membershipSettings: list.membershipSettings } : {}),
    ...(list.listPermissions ? { listPermissions: list.listPermissions } : {}),
    ...(options.includeFilters && list.filterBranch !== undefined ? { filterBranch: list.filterBranch } : {}),
  };
}

/** The list properties a search answers unless it names others (HubSpot's defaults). */
export const defaultSearchProperties = [
  'hs_list_size',
  'hs_last_record_added_at',
  'hs_last_record_removed_at',
  'hs_folder_name',
  'hs_list_reference_count',
] as const;

/** The list properties this service knows, as strings; absent ones (no folder, no member ever removed) are left out. */
function listProperties(list: StoredList, folderName: string | undefined): Record<string, string | undefined> {
  const epochMs = (iso: string | undefined) => (iso === undefined ? undefined : String(Date.parse(iso)));
  return {
    hs_list_size: String(list.size),
    hs_last_record_added_at: epochMs(list.lastRecordAddedAt),
    hs_last_record_removed_at: epochMs(list.lastRecordRemovedAt),
    hs_folder_name: folderName,
    hs_list_reference_count: String(list.listReferences?.size ?? 0),
    hs_object_type_id: list.objectTypeId,
    hs_processing_type: list.processingType,
    ...list.customProperties,
  };
}

/**
 * A search hit (PublicObjectListSearchResult): the list and the named properties it has;
 * `folderNames` names the folders by id (hs_folder_name, for a list in a folder).
 */
export function searchResultOf(
  list: StoredList,
  names: readonly string[],
  folderNames: ReadonlyMap<number, string> = new Map(),
) {
  const known = listProperties(list, folderNames.get(list.listFolderId));
  const additionalProperties: Record<string, string> = {};
  for (const name of names) {
    const value = known[name];
    if (value !== undefined) additionalProperties[name] = value;
  }
  const { size: _size, membershipSettings: _settings, listPermissions: _permissions, ...rest } = publicListOf(list);
  return { ...rest, additionalProperties };
}

/** Names are unique in an account whatever their case: the claim's key is a digest of the lower-cased name. */
export const listNameDigest = (name: string): string => createHash('sha256').update(name.toLowerCase()).digest('hex');
