import type { ObjectType } from '../objects/object-types';
import { associatedActivityIds } from './association-entries';
import { nowMs } from '../base/clock';
import type { CrmRecord, UniqueValue } from '../db/records';
import { loadPropertySchema, type PropertySchema } from '../properties/type-properties';
import { propertyValuesError } from '../properties/validate-property-values';
import {
  appendHistory,
  fitItemSize,
  historyEntry,
  normalizeValues,
  requireRecordProperties,
  uniqueNamespaceOf,
  uniqueSourceNames,
  uniqueValuesOf,
  type Actor,
  type RawProperties,
} from './record-values';
import { defaultsAnd, toRecordView, type RecordView } from './record-view';
import { isLifecycleStageAccepted } from './lifecycle-stage';
import { recordNotFound, resolveRecordId } from './read-records';
import { saveRecordChange } from './save-record';
import { checkAccountValues, newAccountLookups, type AccountLookups } from './account-values';
import { requireWriteRules, type WriteRules } from './write-validation';
import { clientKeyedRecordOf } from '../base/client-keys';

const uniqueKey = (value: UniqueValue) => `${value.propertyName}#${value.value}`;

/** The record after applying the values, or undefined when nothing changes. */
export function applyValues(
  actor: Actor,
  type: ObjectType,
  record: CrmRecord,
  values: Record<string, string>,
  schema: PropertySchema,
): { record: CrmRecord; addUnique: UniqueValue[]; removeUnique: UniqueValue[]; changed: string[] } | undefined {
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
  requireRecordProperties(type, properties);
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
        message: `Activity ${pinned} is not associated with the ${type.singular}; associate it before pinning it`,
      },
    ]);
  }
  const sources = new Set(changed.flatMap((name) => uniqueSourceNames(type, name, schema)));
  const affected = new Set([...sources].map((name) => uniqueNamespaceOf(type, name)));
  const kept = record.uniqueValues.filter((value) => !affected.has(value.propertyName));
  const recomputed = uniqueValuesOf(type, properties, schema, sources);
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
    changed,
  };
}

export interface RecordUpdate {
  properties: RawProperties;
}

export interface PreparedUpdate {
  values: Record<string, string>;
  schema: PropertySchema;
}

export async function prepareUpdate(
  actor: Actor,
  type: ObjectType,
  input: RecordUpdate,
  loaded?: PropertySchema,
): Promise<PreparedUpdate> {
  const schema = loaded ?? (await loadPropertySchema(type, actor.hubId, Object.keys(input.properties)));
  return { values: normalizeValues(type, input.properties, schema), schema };
}

/**
 * Read, apply, write with the version read; a concurrent change makes it start over. A 2026-09
 * write's rules (write-validation.ts) are checked against the record as the change leaves it (a
 * property counts as set when the record holds it or the update sets it; "" clears it), before the
 * write; an update that changes nothing writes nothing and is not checked.
 */
export async function commitUpdate(
  actor: Actor,
  type: ObjectType,
  recordId: string,
  values: Record<string, string>,
  schema: PropertySchema,
  lookups: AccountLookups = newAccountLookups(),
  writeRules?: WriteRules,
): Promise<CrmRecord | undefined> {
  const saved = await saveRecordChange(type, actor.hubId, recordId, async (record) => {
    const change = applyValues(actor, type, record, values, schema);
    if (change) {
      await checkAccountValues(type, actor.hubId, change.record.properties, change.changed, lookups);
      await requireWriteRules(type, actor.hubId, writeRules, change.record.properties, 'update', lookups);
    }
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

export async function updateRecord(
  actor: Actor,
  type: ObjectType,
  id: string,
  input: RecordUpdate,
  idProperty?: string,
  writeRules?: WriteRules,
): Promise<RecordView> {
  const recordId = await resolveRecordId(type, actor.hubId, id, idProperty);
  const { values, schema } = await prepareUpdate(actor, type, input);
  const record =
    recordId === undefined
      ? undefined
      : await commitUpdate(actor, type, recordId, values, schema, newAccountLookups(), writeRules);
  if (!record) throw recordNotFound(id);
  const names = defaultsAnd(type, Object.keys(input.properties));
  return toRecordView(type, record, { properties: names }, schema, true);
}
