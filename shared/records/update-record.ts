import { associatedActivityIds } from './association-entries';
import { nowMs } from '../base/clock';
import type { CompanyRecord, UniqueValue } from '../db/records';
import { loadCompanyPropertySchema, type CompanyPropertySchema } from '../properties/type-properties';
import { propertyValuesError } from '../properties/validate-property-values';
import {
  appendHistory,
  fitItemSize,
  historyEntry,
  normalizeCompanyValues,
  requireNameOrDomain,
  uniqueSourceNames,
  uniqueValuesOf,
  type Actor,
  type RawProperties,
} from './record-values';
import { defaultsAnd, toCompanyView, type CompanyView } from './record-view';
import { isLifecycleStageAccepted } from './lifecycle-stage';
import { companyNotFound, resolveCompanyId } from './read-records';
import { saveCompanyChange } from './save-record';
import { clientKeyedRecordOf } from '../base/client-keys';

const uniqueKey = (value: UniqueValue) => `${value.propertyName}#${value.value}`;

/** The record after applying the values, or undefined when nothing changes. */
export function applyValues(
  actor: Actor,
  record: CompanyRecord,
  values: Record<string, string>,
  schema: CompanyPropertySchema,
): { record: CompanyRecord; addUnique: UniqueValue[]; removeUnique: UniqueValue[] } | undefined {
  const now = new Date(nowMs()).toISOString();
  // Copies without a prototype: `history[name]` must be undefined for a name never set, whatever the name.
  const properties = clientKeyedRecordOf(Object.entries(record.properties));
  const history = clientKeyedRecordOf(Object.entries(record.history));
  const changed: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const current = properties[name];
    if ((current ?? '') === value) continue;
    if (name === 'lifecyclestage' && !isLifecycleStageAccepted(current, value)) continue;
    if (value === '') delete properties[name];
    else properties[name] = value;
    history[name] = appendHistory(history[name], historyEntry(value, now, actor));
    changed.push(name);
  }
  if (changed.length === 0) return undefined;
  requireNameOrDomain(properties);
  const pinned = properties.hs_pinned_engagement_id;
  if (
    changed.includes('hs_pinned_engagement_id') &&
    pinned !== undefined &&
    !associatedActivityIds(record.associations).has(pinned)
  ) {
    throw propertyValuesError([
      {
        name: 'hs_pinned_engagement_id',
        error: 'INVALID_PINNED_ENGAGEMENT',
        message: `Activity ${pinned} is not associated with the company; associate it before pinning it`,
      },
    ]);
  }
  const sources = new Set(changed.flatMap((name) => uniqueSourceNames(name, schema)));
  const affected = new Set([...sources].map((name) => (name === 'hs_additional_domains' ? 'domain' : name)));
  const kept = record.uniqueValues.filter((value) => !affected.has(value.propertyName));
  const recomputed = uniqueValuesOf(properties, schema, sources);
  const uniqueValues = [...new Map([...kept, ...recomputed].map((value) => [uniqueKey(value), value])).values()];
  const before = new Set(record.uniqueValues.map(uniqueKey));
  const after = new Set(uniqueValues.map(uniqueKey));
  const next = fitItemSize({
    ...record,
    properties,
    history,
    uniqueValues,
    updatedAt: now,
    version: record.version + 1,
  });
  return {
    record: next,
    addUnique: uniqueValues.filter((value) => !before.has(uniqueKey(value))),
    removeUnique: record.uniqueValues.filter((value) => !after.has(uniqueKey(value))),
  };
}

export interface CompanyUpdate {
  properties: RawProperties;
}

export interface PreparedUpdate {
  values: Record<string, string>;
  schema: CompanyPropertySchema;
}

export async function prepareUpdate(
  actor: Actor,
  input: CompanyUpdate,
  loaded?: CompanyPropertySchema,
): Promise<PreparedUpdate> {
  const schema = loaded ?? (await loadCompanyPropertySchema(actor.hubId, Object.keys(input.properties)));
  return { values: normalizeCompanyValues(input.properties, schema), schema };
}

/** Read, apply, write with the version read; a concurrent change makes it start over. */
export async function commitUpdate(
  actor: Actor,
  companyId: string,
  values: Record<string, string>,
  schema: CompanyPropertySchema,
): Promise<CompanyRecord | undefined> {
  const saved = await saveCompanyChange(actor.hubId, companyId, (record) => {
    const change = applyValues(actor, record, values, schema);
    return change
      ? {
          record: change.record,
          expectedVersion: record.version,
          addUnique: change.addUnique,
          removeUnique: change.removeUnique,
          linked: [],
        }
      : undefined;
  });
  return saved ? (saved.write?.record ?? saved.record) : undefined;
}

export async function updateCompany(
  actor: Actor,
  id: string,
  input: CompanyUpdate,
  idProperty?: string,
): Promise<CompanyView> {
  const companyId = await resolveCompanyId(actor.hubId, id, idProperty);
  const { values, schema } = await prepareUpdate(actor, input);
  const record = companyId === undefined ? undefined : await commitUpdate(actor, companyId, values, schema);
  if (!record) throw companyNotFound(id);
  const names = defaultsAnd(Object.keys(input.properties));
  return toCompanyView(record, { properties: names }, schema, true);
}
