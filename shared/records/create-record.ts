import {
  checkAssociationLimits,
  resolveAssociationInputs,
  reverseCompanyLinks,
  type AssociationEntry,
  type AssociationInput,
} from './association-entries';
import { nowMs } from '../base/clock';
import type { CompanyRecord, UniqueValue } from '../db/records';
import { loadCompanyPropertySchema, type CompanyPropertySchema } from '../properties/type-properties';
import { propertyValuesError } from '../properties/validate-property-values';
import { newCompanyId } from './record-id';
import {
  appendHistory,
  fitItemSize,
  historyEntry,
  normalizeCompanyValues,
  requireNameOrDomain,
  uniqueValuesOf,
  type Actor,
  type RawProperties,
} from './record-values';
import { associationKey, toCompanyView, type CompanyView } from './record-view';
import { saveWithRetries } from './save-record';
import { clientKeyedRecord, clientKeyedRecordOf } from '../base/client-keys';

export interface NewCompany {
  properties: RawProperties;
  associations?: readonly AssociationInput[];
}

/** A create checked against every rule, ready to be written. */
export interface PreparedCompany {
  properties: Record<string, string>;
  entries: AssociationEntry[];
  uniqueValues: UniqueValue[];
  schema: CompanyPropertySchema;
  sentNames: string[];
}

/** A batch passes the definitions it loaded once for all its inputs. */
export async function prepareCompany(
  actor: Actor,
  input: NewCompany,
  loaded?: CompanyPropertySchema,
): Promise<PreparedCompany> {
  const schema = loaded ?? (await loadCompanyPropertySchema(actor.hubId, Object.keys(input.properties)));
  const values = normalizeCompanyValues(input.properties, schema);
  const properties = clientKeyedRecordOf(Object.entries(values).filter(([, value]) => value !== ''));
  requireNameOrDomain(properties);
  const entries = await resolveAssociationInputs(actor.hubId, input.associations ?? []);
  const pinned = properties.hs_pinned_engagement_id;
  if (pinned !== undefined && !entries.some((entry) => entry.to.isActivity && entry.toObjectId === pinned)) {
    throw propertyValuesError([
      {
        name: 'hs_pinned_engagement_id',
        error: 'INVALID_PINNED_ENGAGEMENT',
        message: `Activity ${pinned} must be associated with the company in the same request to be pinned`,
      },
    ]);
  }
  return {
    properties,
    entries,
    uniqueValues: uniqueValuesOf(properties, schema, Object.keys(properties)),
    schema,
    sentNames: Object.keys(input.properties),
  };
}

function recordOf(actor: Actor, prepared: PreparedCompany): CompanyRecord {
  const now = new Date(nowMs()).toISOString();
  const history = clientKeyedRecord<CompanyRecord['history'][string]>();
  for (const [name, value] of Object.entries(prepared.properties))
    history[name] = appendHistory(undefined, historyEntry(value, now, actor));
  const record: CompanyRecord = {
    id: newCompanyId(),
    properties: prepared.properties,
    history,
    associations: Object.fromEntries(
      prepared.entries.map((entry) => [
        associationKey(entry.to.id, entry.toObjectId, entry.type.typeId),
        entry.type.name,
      ]),
    ),
    uniqueValues: prepared.uniqueValues,
    createdAt: now,
    updatedAt: now,
    archived: false,
    version: 1,
  };
  checkAssociationLimits(record);
  return fitItemSize(record);
}

/**
 * One TransactWriteItems: the company, its unique values and the reverse side of company
 * associations, all or nothing. A new id is drawn only if the rare id collision happens.
 */
export async function commitCompany(actor: Actor, prepared: PreparedCompany): Promise<CompanyView> {
  let record = recordOf(actor, prepared);
  await saveWithRetries(actor.hubId, async (attempt) => {
    if (attempt > 0) record = { ...record, id: newCompanyId() };
    return {
      record,
      addUnique: record.uniqueValues,
      removeUnique: [],
      linked: reverseCompanyLinks(record.id, prepared.entries, 'set'),
    };
  });
  const names = [
    ...new Set(['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', 'name', ...prepared.sentNames]),
  ];
  return toCompanyView(record, { properties: names }, prepared.schema, true);
}

export async function createCompany(actor: Actor, input: NewCompany): Promise<CompanyView> {
  return commitCompany(actor, await prepareCompany(actor, input));
}
