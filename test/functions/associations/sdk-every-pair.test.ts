import { AssociationSpecAssociationCategoryEnum } from '@hubspot/api-client/lib/codegen/crm/associations/v4/models/AssociationSpec';
import { createRecord, type StoredTypeName } from '../../support/crm-client';
import { useSdkClient } from '../../support/sdk-client';

/**
 * Every pair of stored types among contacts, companies, deals and tickets, and each activity and line items with one of them, through the official SDK, unchanged but for the base URL (it throws on
 * any status but the one it expects): v4 basic (default create, labeled create, page, archive), v4
 * batch read, v4 schema (labels), v3 batch read and v3 types, each side with HubSpot's type ids.
 */
const sdk = useSdkClient();

type Stored = StoredTypeName;

/** [from, to, from -> to unlabeled id, to -> from unlabeled id, the v3 name from `from`] (the wire facts' table 7.1). */
const pairs: [Stored, Stored, number, number, string][] = [
  ['contacts', 'companies', 279, 280, 'contact_to_company_unlabeled'],
  ['companies', 'contacts', 280, 279, 'company_to_contact_unlabeled'],
  ['contacts', 'deals', 4, 3, 'contact_to_deal'],
  ['deals', 'contacts', 3, 4, 'deal_to_contact'],
  ['contacts', 'tickets', 15, 16, 'contact_to_ticket'],
  ['tickets', 'contacts', 16, 15, 'ticket_to_contact'],
  ['companies', 'deals', 342, 341, 'company_to_deal_unlabeled'],
  ['deals', 'companies', 341, 342, 'deal_to_company_unlabeled'],
  ['companies', 'tickets', 340, 339, 'company_to_ticket_unlabeled'],
  ['tickets', 'companies', 339, 340, 'ticket_to_company_unlabeled'],
  ['deals', 'tickets', 27, 28, 'deal_to_ticket'],
  ['tickets', 'deals', 28, 27, 'ticket_to_deal'],
  ['contacts', 'contacts', 449, 449, 'contact_to_contact'],
  ['companies', 'companies', 450, 450, 'company_to_company'],
  ['deals', 'deals', 451, 451, 'deal_to_deal'],
  ['tickets', 'tickets', 452, 452, 'ticket_to_ticket'],
  // Activities and line items (table 7.2; the line-item guide): each activity with one record type, both ways for notes.
  ['notes', 'contacts', 202, 201, 'note_to_contact'],
  ['contacts', 'notes', 201, 202, 'contact_to_note'],
  ['calls', 'companies', 182, 181, 'call_to_company'],
  ['emails', 'deals', 210, 209, 'email_to_deal'],
  ['meetings', 'tickets', 226, 225, 'meeting_to_ticket'],
  ['tasks', 'contacts', 204, 203, 'task_to_contact'],
  ['deals', 'line_items', 19, 20, 'deal_to_line_item'],
  ['line_items', 'deals', 20, 19, 'line_item_to_deal'],
];

describe.each(pairs)('%s to %s', (from, to, forward, backward, v3Name) => {
  it('associates, reads from both sides (v4 page, v4 batch read, v3 batch read), lists the types and archives', async () => {
    const v4 = sdk.client.crm.associations.v4;
    const fromId = await createRecord(sdk.api, from);
    const toId = await createRecord(sdk.api, to);

    const created = await v4.basicApi.createDefault(from, fromId, to, toId);
    expect(created.results.map((result) => result.associationSpec.associationTypeId).sort()).toEqual(
      [forward, backward].sort(),
    );
    const labeled = await v4.basicApi.create(from, fromId, to, toId, [
      { associationCategory: AssociationSpecAssociationCategoryEnum.HubspotDefined, associationTypeId: forward },
    ]);
    expect([String(labeled.fromObjectId), String(labeled.toObjectId)]).toEqual([fromId, toId]);

    const page = await v4.basicApi.getPage(from, fromId, to);
    expect(
      page.results.map((result) => [String(result.toObjectId), result.associationTypes.map((t) => t.typeId)]),
    ).toEqual([[toId, [forward]]]);
    const back = await v4.batchApi.getPage(to, from, { inputs: [{ id: toId }] });
    expect(back.results.map((result) => [result._from.id, result.to.map((t) => String(t.toObjectId))])).toEqual([
      [toId, [fromId]],
    ]);
    expect(back.results[0]?.to[0]?.associationTypes.map((type) => type.typeId)).toEqual([backward]);
    const v3 = await sdk.client.crm.associations.batchApi.read(from, to, { inputs: [{ id: fromId }] });
    expect(v3.results.map((result) => result.to.map((t) => [t.id, t.type]))).toEqual([[[toId, v3Name]]]);

    const labels = await v4.schema.definitionsApi.getAll(from, to);
    expect(labels.results.map((label) => label.typeId)).toContain(forward);
    const types = await sdk.client.crm.associations.schema.typesApi.getAll(from, to);
    expect(types.results.map((type) => type.name)).toContain(v3Name);

    await v4.basicApi.archive(from, fromId, to, toId);
    expect((await v4.basicApi.getPage(to, toId, from)).results).toEqual([]);
  });
});
