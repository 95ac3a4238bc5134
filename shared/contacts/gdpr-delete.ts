import { nowMs } from '../base/clock';
import { ValidationError } from '../base/errors';
import { retryOnConflict, conflicted } from '../base/retry';
import { ServiceUnavailableError } from '../base/errors';
import { batchDeleteAll } from '../db/core';
import { associationEdgeKey } from '../db/keys';
import * as records from '../db/records';
import { companyObjectType, type ObjectType } from '../objects/object-types';
import { recordNotFound, requireIdProperty, uniqueValueOf } from '../records/read-records';
import { saveRecordChange } from '../records/save-record';

/** Edges read per page while the contact's companies lose it. */
const edgePage = 100;

/**
 * `POST /crm/v3/objects/contacts/gdpr-delete`: deletes a contact for good (no recycle bin): its
 * item, search projection and unique values in one transaction, then its associations on the
 * companies that hold them and their reverse-lookup items. With `idProperty=email`, an address no
 * contact holds is blocklisted instead (its unique-value claim names no record), so no contact
 * may take it later (400 naming `email`). An unknown id answers 404.
 * https://developers.hubspot.com/docs/api-reference/crm-contacts-v3 (PublicGdprDeleteInput)
 */
export async function gdprDeleteContact(
  type: ObjectType,
  hubId: number,
  input: { objectId: string; idProperty?: string },
): Promise<void> {
  if (type.name !== 'contacts') {
    throw new ValidationError(`GDPR delete is for contacts only, not ${type.name}`, {
      context: { objectType: [type.name] },
    });
  }
  const propertyName = await requireIdProperty(type, hubId, input.idProperty);
  let id: string | undefined = input.objectId;
  if (propertyName !== 'hs_object_id') {
    const value = uniqueValueOf(type, propertyName, input.objectId);
    if (value === undefined) {
      throw new ValidationError(`${input.objectId} is not a valid ${propertyName}`, {
        context: { objectId: [input.objectId] },
      });
    }
    id = await records.findUniqueValueOwner(type, hubId, { propertyName, value });
    if (id === undefined) {
      await records.blockUniqueValue(type, hubId, { propertyName, value }, new Date(nowMs()).toISOString());
      return;
    }
  }
  const contactId = id;
  const deleted = await retryOnConflict(
    async () => {
      const active = await records.findRecord(type, hubId, contactId);
      const record = active ?? (await records.findRecord(type, hubId, contactId, true));
      if (!record) return false;
      const outcome = await records.deleteRecordForGood(type, hubId, record, active === undefined);
      return outcome === 'deleted' ? true : conflicted;
    },
    () => {
      throw new ServiceUnavailableError('The contact is being changed by other requests; retry the request.');
    },
  );
  if (!deleted) throw recordNotFound(input.objectId);
  await forgetCompanyAssociations(type, hubId, contactId);
}

/** The companies associated with the contact lose it; its reverse-lookup items go. */
async function forgetCompanyAssociations(type: ObjectType, hubId: number, contactId: string): Promise<void> {
  const prefix = `${type.id}/${contactId}/`;
  for (;;) {
    const page = await records.listAssociationEdges(hubId, type.id, contactId, edgePage, undefined);
    for (const companyId of page.companyIds) {
      await saveRecordChange(companyObjectType, hubId, companyId, (company) => {
        const kept = Object.entries(company.associations).filter(([key]) => !key.startsWith(prefix));
        if (kept.length === Object.keys(company.associations).length) return undefined;
        return {
          record: { ...company, associations: Object.fromEntries(kept), version: company.version + 1 },
          expectedVersion: company.version,
          addUnique: [],
          removeUnique: [],
          linked: [],
        };
      });
    }
    await batchDeleteAll(page.companyIds.map((companyId) => associationEdgeKey(hubId, type.id, contactId, companyId)));
    // Each page's items are gone, so the next read starts over; a short page was the last.
    if (!page.hasMore) return;
  }
}
