import { checkAssociationLimits } from './association-entries';
import { findStandardTypeFrom, type AssociationType } from '../association-types/association-types';
import { companyObjectType } from '../objects/object-types';
import { clientKeyedRecordOf, ownValue } from '../base/client-keys';
import { nowMs } from '../base/clock';
import * as customTypes from '../db/association-labels';
import * as companies from '../db/records';
import type { CompanyRecord, HistoryEntry, LinkedCompanyChange, UniqueValue } from '../db/records';
import { mergeCompanies as writeMerge, type CompanyMergeWrite } from '../db/record-merge';
import { NotFoundError, ServiceUnavailableError, TooManyIdentitiesError, ValidationError } from '../base/errors';
import { conflicted, retryOnConflict } from '../base/retry';
import { defaultCompanyPropertyNames } from '../properties/company-property-catalog';
import { newCompanyId, isNumericId } from './record-id';
import { appendHistory, fitItemSize, historyEntry, uniqueDomainProperty, type Actor } from './record-values';
import { toCompanyView, type CompanyView } from './record-view';
import { findMergedRecords, maxCompanyIdentities } from './merged-ids';
import { lookupFor } from './read-records';
import { searchFormsOf } from './search-forms';
import { addedEdges } from './save-record';

export interface MergeInput {
  primaryObjectId: string;
  objectIdToMerge: string;
}

/** hs_additional_domains holds at most this many (record-values.ts); extra domains of a merge are released. */
const maxAdditionalDomains = 20;
const mergedIdsProperty = 'hs_merged_object_ids';

const uniqueKey = (value: UniqueValue) => `${value.propertyName}#${value.value}`;
const splitList = (value: string | undefined) => (value ?? '').split(';').filter((part) => part !== '');

/** An id of a record that is active, merged away (followed to its result), archived, or unknown here. */
async function requireMergeable(hubId: number, id: string, field: keyof MergeInput): Promise<CompanyRecord> {
  if (!isNumericId(id)) throw new NotFoundError(`Company ${id} not found`, { context: { [field]: [id] } });
  const record = (await companies.findCompany(hubId, id)) ?? (await findMergedRecords(hubId, [id])).get(id);
  if (record) return record;
  if (await companies.findCompany(hubId, id, true)) {
    throw new ValidationError(`Company ${id} is archived: restore it before merging`, { context: { [field]: [id] } });
  }
  // Another account's record answers like a missing one.
  throw new NotFoundError(`Company ${id} not found`, { context: { [field]: [id] } });
}

/** Every id the merged record holds besides its own: both records' and those merged into either before. */
function mergedIdsOf(primary: CompanyRecord, secondary: CompanyRecord): string[] {
  return [
    ...new Set([
      ...splitList(ownValue(primary.properties, mergedIdsProperty)),
      primary.id,
      ...splitList(ownValue(secondary.properties, mergedIdsProperty)),
      secondary.id,
    ]),
  ];
}

/** Domains: the primary's domain (else the secondary's); every other domain of both as additional ones. */
function mergedDomains(
  primary: CompanyRecord,
  secondary: CompanyRecord,
): { domain?: string; additional: string[]; released: string[] } {
  const domain = ownValue(primary.properties, 'domain') ?? ownValue(secondary.properties, 'domain');
  const all = [
    ownValue(primary.properties, 'domain'),
    ...splitList(ownValue(primary.properties, 'hs_additional_domains')),
    ownValue(secondary.properties, 'domain'),
    ...splitList(ownValue(secondary.properties, 'hs_additional_domains')),
  ].filter((value): value is string => value !== undefined && value !== '' && value !== domain);
  const unique = [...new Set(all)];
  return { domain, additional: unique.slice(0, maxAdditionalDomains), released: unique.slice(maxAdditionalDomains) };
}

/** The custom type of an association key, for its inverse on the other company. */
type TypeFinder = (typeId: number) => Promise<AssociationType | undefined>;

/**
 * The merge as one write. Values of the primary win and the secondary fills what the primary
 * lacks (each value keeps the history of the record it came from); both domains stay, one as
 * `domain`; associations of both move to the new record, except the one between the two; other
 * companies linked to either get their keys moved to the new id.
 */
async function planMerge(
  actor: Actor,
  primary: CompanyRecord,
  secondary: CompanyRecord,
  findType: TypeFinder,
): Promise<CompanyMergeWrite> {
  const now = new Date(nowMs()).toISOString();
  const id = newCompanyId();
  const properties = clientKeyedRecordOf([
    ...Object.entries(secondary.properties),
    ...Object.entries(primary.properties),
  ]);
  const history = clientKeyedRecordOf<HistoryEntry[]>([
    ...Object.entries(secondary.history),
    ...Object.entries(primary.history),
  ]);
  for (const name of Object.keys(secondary.properties)) {
    const entries = ownValue(secondary.history, name);
    if (ownValue(primary.properties, name) === undefined && entries) history[name] = entries;
  }
  const setComputed = (name: string, value: string | undefined) => {
    if ((ownValue(properties, name) ?? '') === (value ?? '')) return;
    if (value === undefined || value === '') delete properties[name];
    else properties[name] = value;
    history[name] = appendHistory(ownValue(history, name), historyEntry(value ?? '', now, actor));
  };
  const domains = mergedDomains(primary, secondary);
  setComputed('domain', domains.domain);
  setComputed('hs_additional_domains', domains.additional.join(';'));
  const mergedIds = mergedIdsOf(primary, secondary);
  setComputed(mergedIdsProperty, mergedIds.join(';'));

  const domainValues = [domains.domain, ...domains.additional]
    .filter((value): value is string => value !== undefined)
    .map((value): UniqueValue => ({ propertyName: uniqueDomainProperty, value }));
  const customValues = [
    ...primary.uniqueValues.filter((value) => value.propertyName !== uniqueDomainProperty),
    ...secondary.uniqueValues.filter(
      (value) =>
        value.propertyName !== uniqueDomainProperty && ownValue(primary.properties, value.propertyName) === undefined,
    ),
  ];
  const uniqueValues = [
    ...new Map([...domainValues, ...customValues].map((value) => [uniqueKey(value), value])).values(),
  ];
  const kept = new Set(uniqueValues.map(uniqueKey));
  const releasedUniqueValues = [
    ...new Map(
      [...primary.uniqueValues, ...secondary.uniqueValues]
        .filter((value) => !kept.has(uniqueKey(value)))
        .map((value) => [uniqueKey(value), value]),
    ).values(),
  ];

  const oldIds = new Set([primary.id, secondary.id]);
  const isBetweenOld = (key: string) =>
    key.startsWith(`${companyObjectType.id}/`) && oldIds.has(key.split('/')[1] ?? '');
  const associations = clientKeyedRecordOf(
    [...Object.entries(secondary.associations), ...Object.entries(primary.associations)].filter(
      ([key]) => !isBetweenOld(key),
    ),
  );
  const linked: LinkedCompanyChange[] = [];
  for (const source of [primary, secondary]) {
    for (const key of Object.keys(source.associations)) {
      const [objectTypeId, otherId, typeIdText] = key.split('/');
      if (objectTypeId !== companyObjectType.id || otherId === undefined || oldIds.has(otherId)) continue;
      const typeId = Number(typeIdText);
      const type = findStandardTypeFrom(companyObjectType.id, typeId) ?? (await findType(typeId));
      if (!type) continue;
      linked.push({
        companyId: otherId,
        set: { [`${companyObjectType.id}/${id}/${type.inverseTypeId}`]: type.inverseName },
        remove: [`${companyObjectType.id}/${source.id}/${type.inverseTypeId}`],
      });
    }
  }
  // Each linked company ends up associated with the new record once, whether it was with one old record or both.
  const [primaryLinks, secondaryLinks] = [
    companies.companyLinkIds(primary.associations),
    companies.companyLinkIds(secondary.associations),
  ];
  const counted = new Set<string>();
  for (const change of linked) {
    if (counted.has(change.companyId)) continue;
    counted.add(change.companyId);
    change.linkDelta =
      1 - (primaryLinks.has(change.companyId) ? 1 : 0) - (secondaryLinks.has(change.companyId) ? 1 : 0);
  }
  const merged = fitItemSize({
    id,
    properties,
    history,
    associations,
    uniqueValues,
    createdAt: primary.createdAt,
    updatedAt: now,
    archived: false,
    version: 0,
  });
  // A record already over a limit (written before it held on both sides) can still be merged: only growth past both is refused.
  checkAssociationLimits(merged, [primary, secondary]);
  return {
    merged,
    removed: [primary, secondary],
    uniqueValues,
    releasedUniqueValues,
    linked,
    edges: addedEdges({}, merged.associations),
    // Ids merged into either record before point at that record; they move to the new one, so reads follow one pointer.
    repointedIds: mergedIds.filter((mergedId) => !oldIds.has(mergedId)),
  };
}

/**
 * POST /crm/v3/objects/companies/merge. As HubSpot does since its merge change: a new record with
 * a new id holds the result, and either old id reads it. One TransactWriteItems writes all of it
 * (shared/db/record-merge.ts); a concurrent change to either record makes it start over.
 */
export async function mergeCompanies(actor: Actor, input: MergeInput): Promise<CompanyView> {
  const { primaryObjectId, objectIdToMerge } = input;
  if (primaryObjectId === objectIdToMerge) {
    throw new ValidationError('A company cannot be merged with itself', {
      context: { primaryObjectId: [primaryObjectId], objectIdToMerge: [objectIdToMerge] },
    });
  }
  const cache = new Map<number, Promise<AssociationType | undefined>>();
  const findType: TypeFinder = (typeId) => {
    const found = cache.get(typeId) ?? customTypes.findCustomAssociationType(actor.hubId, typeId);
    cache.set(typeId, found);
    return found;
  };
  return retryOnConflict(
    async () => {
      const [primary, secondary] = await Promise.all([
        requireMergeable(actor.hubId, primaryObjectId, 'primaryObjectId'),
        requireMergeable(actor.hubId, objectIdToMerge, 'objectIdToMerge'),
      ]);
      // Both ids already lead to one record: the merge happened (say, a retry whose answer was lost).
      if (primary.id === secondary.id) return mergedView(actor.hubId, primary);
      // Checked before anything is written. It also bounds the pointers a merge moves and a read follows (merged-ids.ts).
      if (mergedIdsOf(primary, secondary).length + 1 > maxCompanyIdentities) {
        throw new TooManyIdentitiesError(`Cannot have more than ${maxCompanyIdentities} identities on a profile`, {
          context: { primaryObjectId: [primaryObjectId], objectIdToMerge: [objectIdToMerge] },
        });
      }
      const write = await planMerge(actor, primary, secondary, findType);
      const result = await writeMerge(actor.hubId, write, searchFormsOf(write.merged));
      if (result.outcome === 'merged') return mergedView(actor.hubId, write.merged);
      if (result.outcome === 'too-many-items' || result.outcome === 'too-large') {
        throw new ValidationError(
          'These companies hold too many unique values and associated companies to merge in one step; remove some first',
          { context: { primaryObjectId: [primaryObjectId], objectIdToMerge: [objectIdToMerge] } },
        );
      }
      // stale, contended, a linked company or unique value changed meanwhile: read again.
      return conflicted;
    },
    () => {
      throw new ServiceUnavailableError('The companies are being changed by other requests; retry the merge.');
    },
  );
}

async function mergedView(hubId: number, record: CompanyRecord): Promise<CompanyView> {
  const options = {
    properties: [...new Set([...defaultCompanyPropertyNames, mergedIdsProperty, ...Object.keys(record.properties)])],
  };
  return toCompanyView(record, options, await lookupFor(hubId, options), true);
}
