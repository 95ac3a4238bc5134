import type { DatedVersion } from '../base/route-types';
import { ownValue } from '../base/client-keys';
import { findWriteValidation, type ConditionalRequirement, type WriteValidation } from '../db/write-validation';
import type { ObjectType } from '../objects/object-types';
import { isClosedWonStage } from '../pipelines/stage-metadata';
import { propertyValuesError, type InvalidValue } from '../properties/validate-property-values';
import { stageOfRecord, type AccountLookups } from './account-values';

/**
 * HubSpot's write-validation enforcement: from the 2026-09 paths on, the account admin's rules
 * apply to every CRM API write: the properties the create-record form requires, and properties
 * required when another property holds some value (closedate when dealstage is closed won). The
 * rules are the account's, per object type (shared/db/write-validation.ts, set through the
 * test-account controls or the admin CLI); an account has none until they are set. Numbered
 * paths and 2026-03 are never checked.
 */
export type WriteRules = Pick<WriteValidation, 'requiredOnCreate' | 'conditionalRequirements'>;

/** The first dated version that enforces the rules; later ones (`YYYY-MM` sorts as text) do too. */
const firstEnforcingVersion = '2026-09';

export const enforcesWriteValidation = (version: DatedVersion | undefined): boolean =>
  version !== undefined && version >= firstEnforcingVersion;

/**
 * The rules a write request of this version is checked against: the account's write validation of
 * the type (one GetItem, however many inputs the request holds), or undefined when the version
 * enforces none or the account has none for the type. Read before anything is written.
 */
export async function writeRulesFor(
  type: ObjectType,
  hubId: number,
  version: DatedVersion | undefined,
): Promise<WriteRules | undefined> {
  if (!enforcesWriteValidation(version)) return undefined;
  return findWriteValidation(hubId, type.id);
}

function describeCondition(requirement: ConditionalRequirement): string {
  if (requirement.whenClosedWon) return `${requirement.whenProperty} is a closed won stage`;
  const values = requirement.whenValues ?? [];
  return `${requirement.whenProperty} is ${values.length === 1 ? values[0] : `one of [${values.join(', ')}]`}`;
}

async function conditionHolds(
  type: ObjectType,
  hubId: number,
  requirement: ConditionalRequirement,
  properties: Readonly<Record<string, string>>,
  lookups: AccountLookups,
): Promise<boolean> {
  const value = ownValue(properties, requirement.whenProperty);
  if (value === undefined || value === '') return false;
  if (!requirement.whenClosedWon) return (requirement.whenValues ?? []).includes(value);
  const stage = await stageOfRecord(type, hubId, properties, lookups);
  return stage !== undefined && isClosedWonStage(stage.metadata);
}

/**
 * Checks what a write leaves (`properties`: the record's values after a create, or after an update
 * applied to the stored record, cleared values absent) against the rules: on a create, every
 * `requiredOnCreate` property must hold a value; on both, each conditional requirement whose
 * condition holds. Every missing property is reported at once, as refused property values are
 * (propertyValuesError: 400 VALIDATION_ERROR, code REQUIRED_PROPERTY, each named in `errors[].context.propertyName`).
 * A closed won condition reads the account's pipelines of the type only when its property is
 * missing, once per request (`lookups`).
 */
export async function requireWriteRules(
  type: ObjectType,
  hubId: number,
  rules: WriteRules | undefined,
  properties: Readonly<Record<string, string>>,
  write: 'create' | 'update',
  lookups: AccountLookups,
): Promise<void> {
  if (!rules) return;
  const missing = new Map<string, InvalidValue>();
  const isSet = (name: string) => {
    const value = ownValue(properties, name);
    return value !== undefined && value !== '';
  };
  if (write === 'create') {
    for (const name of rules.requiredOnCreate) {
      if (!isSet(name) && !missing.has(name))
        missing.set(name, {
          name,
          error: 'REQUIRED_PROPERTY',
          message: `${name} is required to create a ${type.singular}`,
        });
    }
  }
  for (const requirement of rules.conditionalRequirements) {
    const name = requirement.propertyName;
    if (isSet(name) || missing.has(name)) continue;
    if (await conditionHolds(type, hubId, requirement, properties, lookups))
      missing.set(name, {
        name,
        error: 'REQUIRED_PROPERTY',
        message: `${name} is required when ${describeCondition(requirement)}`,
      });
  }
  if (missing.size > 0) throw propertyValuesError([...missing.values()]);
}
