import { isNumericId } from './record-id';
import { associationKey } from './record-view';
import {
  companyLinkIds,
  maxAssociationsPerCompany,
  maxCompanyLinksPerCompany,
  type CrmRecord,
  type LinkedCompanyChange,
} from '../db/records';
import { ValidationError } from '../base/errors';
import { resolveCompanyAssociationTypeById } from '../association-types/association-labels';
import { findStandardTypeFrom, type AssociationType } from '../association-types/association-types';
import { companyObjectType, objectTypeById, type ObjectType } from '../objects/object-types';

/** The create body's form (SimplePublicObjectInputForCreate.associations). */
export interface AssociationInput {
  to: { id: string };
  types: readonly { associationCategory?: string; associationTypeId: number }[];
}

export interface AssociationEntry {
  type: AssociationType;
  to: ObjectType;
  toObjectId: string;
}

export { maxAssociationsPerCompany, maxCompanyLinksPerCompany };

export function invalidAssociationTargets(ids: string[]): ValidationError {
  return new ValidationError('One or more associations are invalid', {
    context: { INVALID_OBJECT_IDS: ids },
    errors: ids.map((id) => ({
      message: `No object with id ${id} can be associated`,
      code: 'INVALID_OBJECT_IDS',
      context: { id: [id] },
    })),
  });
}

/**
 * A primary type also records its unlabeled type, as HubSpot's Primary association types do:
 * https://developers.hubspot.com/docs/api-reference/crm-associations-schema-v4/guide
 */
export function withImpliedTypes(entry: AssociationEntry): AssociationEntry[] {
  const implied =
    entry.type.impliesTypeId === undefined
      ? undefined
      : findStandardTypeFrom(companyObjectType.id, entry.type.impliesTypeId);
  return implied ? [entry, { ...entry, type: implied }] : [entry];
}

export async function resolveAssociationInputs(
  type: ObjectType,
  hubId: number,
  inputs: readonly AssociationInput[],
): Promise<AssociationEntry[]> {
  if (inputs.length > 0 && type.id !== companyObjectType.id) {
    // Until associations between every stored type are stored on both sides, a company holds each of its associations.
    throw new ValidationError(
      `Records of ${type.name} cannot be created with associations yet: create the record, then associate it from the company (/crm/v4/objects/companies/{id}/associations/${type.name}/{toObjectId})`,
      { context: { associations: inputs.map((input) => input.to.id) } },
    );
  }
  const badIds = inputs.map((input) => input.to.id).filter((id) => !isNumericId(id));
  if (badIds.length > 0) throw invalidAssociationTargets(badIds);
  const entries = new Map<string, AssociationEntry>();
  for (const input of inputs) {
    for (const typeInput of input.types) {
      const { type, to } = await resolveCompanyAssociationTypeById(
        hubId,
        typeInput.associationTypeId,
        typeInput.associationCategory,
      );
      for (const entry of withImpliedTypes({ type, to, toObjectId: input.to.id })) {
        entries.set(associationKey(entry.to.id, entry.toObjectId, entry.type.typeId), entry);
      }
    }
  }
  return [...entries.values()];
}

/** A company target with no room for another association on its side (checked there, in the write). */
export class CompanyLinksFullError extends ValidationError {
  constructor(readonly companyId: string) {
    super(
      `Company ${companyId} has no room for this association: a company may have at most ${maxCompanyLinksPerCompany} associated companies and ${maxAssociationsPerCompany} associations`,
      {
        context: { associations: [companyId] },
        errors: [
          {
            message: `Company ${companyId} has no room for another associated company`,
            code: 'TOO_MANY_ASSOCIATIONS',
            context: { id: [companyId] },
          },
        ],
      },
    );
  }
}

export const companyLinksFull = (companyId: string): CompanyLinksFullError => new CompanyLinksFullError(companyId);

export function associationLimitError(keys: number): ValidationError {
  return new ValidationError(
    `A company may have at most ${maxAssociationsPerCompany} associations and ${maxCompanyLinksPerCompany} associated companies`,
    { context: { associations: [String(keys)] } },
  );
}

/**
 * The limits bound what a write adds: a record over them (data written before they held on both
 * sides) may still lose associations, be merged and change in any way that does not add to the
 * count it is over. `before` is the record as read (none for a new one; both records of a merge).
 */
export function checkAssociationLimits(after: CrmRecord, before: CrmRecord | readonly CrmRecord[] = []): void {
  const previous = Array.isArray(before) ? before : [before as CrmRecord];
  const keys = Object.keys(after.associations).length;
  const keysBefore = Math.max(0, ...previous.map((record) => Object.keys(record.associations).length));
  const links = companyLinkIds(after.associations).size;
  const linksBefore = Math.max(0, ...previous.map((record) => companyLinkIds(record.associations).size));
  if (
    (keys > maxAssociationsPerCompany && keys > keysBefore) ||
    (links > maxCompanyLinksPerCompany && links > linksBefore)
  )
    throw associationLimitError(keys);
}

/** The reverse side of company-to-company associations, stored on the other company. */
export function reverseCompanyLinks(
  companyId: string,
  entries: readonly AssociationEntry[],
  mode: 'set' | 'remove',
): LinkedCompanyChange[] {
  return entries
    .filter((entry) => entry.to.id === companyObjectType.id)
    .map((entry) => {
      const key = associationKey(companyObjectType.id, companyId, entry.type.inverseTypeId);
      return mode === 'set'
        ? { companyId: entry.toObjectId, set: { [key]: entry.type.inverseName }, remove: [] }
        : { companyId: entry.toObjectId, set: {}, remove: [key] };
    });
}

/** The activity ids a company has associated, for the pinning rule. */
export function associatedActivityIds(associations: Record<string, string>): Set<string> {
  const ids = new Set<string>();
  for (const key of Object.keys(associations)) {
    const [typeId, id] = key.split('/');
    if (typeId !== undefined && id !== undefined && objectTypeById(typeId)?.isActivity) ids.add(id);
  }
  return ids;
}
