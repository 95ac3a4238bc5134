import { nowMs } from '../base/clock';
import { ValidationError } from '../base/errors';
import { ServiceUnavailableError } from '../base/errors';
import { batchDeleteAll } from '../db/core';
import { associationEdgeKey } from '../db/keys';
import * as records from '../db/records';
import { companyObjectType, type ObjectType } from '../objects/object-types';
import { recordNotFound, requireIdProperty, uniqueValueOf } from '../records/read-records';
import { addedEdges } from '../records/save-record';
import { deleteRecordForGoodById } from '../records/archive-record';
import { customTypeFinder, linkedChangesOf } from '../records/association-entries';
import { mapConcurrently } from '../base/map-concurrently';
import type { CrmRecord } from '../db/records';

/** Edges read per page while the contact's companies lose it. */
const edgePage = 100;
/** Records losing their side of the deleted contact's associations at once. */
const forgetConcurrency = 8;

/**
 * `POST /crm/v3/objects/contacts/gdpr-delete`: deletes a contact for good (no recycle bin): its
 * item, search projection and unique values in one transaction, then the other side of its
 * associations and their reverse-lookup items. With `idProperty=email`, an address no
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
  const deleted = await deleteRecordForGoodById(type, hubId, contactId, () => {
    throw new ServiceUnavailableError('The contact is being changed by other requests; retry the request.');
  });
  if (!deleted) throw recordNotFound(input.objectId);
  await forgetAssociations(type, hubId, deleted);
}

/**
 * The records associated with the deleted contact lose their side; its reverse-lookup items go.
 * Companies that associated the contact before contacts held their own side are found through the
 * reverse-lookup items such an association wrote then.
 */
async function forgetAssociations(type: ObjectType, hubId: number, contact: CrmRecord): Promise<void> {
  const changes = await linkedChangesOf(type, contact.id, contact.associations, {}, customTypeFinder(hubId));
  await mapConcurrently(changes, forgetConcurrency, (change) =>
    records.removeAssociationKeys(hubId, change.type, change.id, change.remove, false),
  );
  const edges = addedEdges({}, contact.associations);
  await batchDeleteAll(
    edges.map((edge) => associationEdgeKey(hubId, type, edge.objectTypeId, edge.objectId, contact.id)),
  );
  const prefix = `${type.id}/${contact.id}/`;
  for (;;) {
    const page = await records.listAssociationEdges(hubId, companyObjectType, type.id, contact.id, edgePage, undefined);
    for (const companyId of page.holderIds) {
      const keys = Object.keys((await records.findRecord(companyObjectType, hubId, companyId))?.associations ?? {});
      await records.removeAssociationKeys(
        hubId,
        companyObjectType,
        companyId,
        keys.filter((key) => key.startsWith(prefix)),
        false,
      );
    }
    await batchDeleteAll(
      page.holderIds.map((companyId) => associationEdgeKey(hubId, companyObjectType, type.id, contact.id, companyId)),
    );
    // Each page's items are gone, so the next read starts over; a short page was the last.
    if (!page.hasMore) return;
  }
}
