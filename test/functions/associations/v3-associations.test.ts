import { createRecord, createRecords, crmClient } from '../../support/crm-client';
import { install, unique } from '../../support/harness';
import { useSdkClient } from '../../support/sdk-client';

/**
 * The v3 associations API through the official SDK (`crm.associations.batchApi` and
 * `crm.associations.schema.typesApi`), unchanged but for the base URL: it throws on any status but
 * the one it expects (create 201/207, read 200/207, archive 204, types 200), and its models must
 * parse our answers. Records are real: both records of an association must exist.
 */
const sdk = useSdkClient();

type Stored = 'contacts' | 'companies' | 'deals' | 'tickets';

const batchApi = () => sdk.client.crm.associations.batchApi;

/** The type ids one record holds towards records of another type (read with v4). */
const v4Types = async (from: Stored, fromId: string, to: Stored): Promise<number[]> =>
  (await sdk.client.crm.associations.v4.basicApi.getPage(from, fromId, to)).results.flatMap((result) =>
    result.associationTypes.map((type) => type.typeId),
  );

/** A new record of each type: their ids. */
const newPair = async (from: Stored, to: Stored): Promise<[string, string]> => [
  await createRecord(sdk.api, from),
  await createRecord(sdk.api, to),
];

/** A new record of each type, associated with `type` through the v3 create: their ids. */
async function associated(from: Stored, to: Stored, type: string): Promise<[string, string]> {
  const [fromId, toId] = await newPair(from, to);
  await batchApi().create(from, to, { inputs: [{ _from: { id: fromId }, to: { id: toId }, type }] });
  return [fromId, toId];
}

describe('crm.associations.batchApi.create', () => {
  it('answers 201 with one {from, to, type} per input, the type by its v3 name, stored on both records', async () => {
    const contact = await createRecord(sdk.api, 'contacts');
    const [primary, other] = await createRecords(sdk.api, 'companies', 2);

    const answer = await batchApi().createWithHttpInfo('contacts', 'companies', {
      inputs: [
        { _from: { id: contact }, to: { id: String(primary) }, type: 'contact_to_company' },
        { _from: { id: contact }, to: { id: String(other) }, type: '279' },
      ],
    });

    expect(answer.httpStatusCode).toBe(201);
    expect(answer.data.status).toBe('COMPLETE');
    expect(answer.data.startedAt).toBeInstanceOf(Date);
    expect(answer.data.completedAt).toBeInstanceOf(Date);
    expect(answer.data.results.map((result) => [result._from.id, result.to.id, result.type])).toEqual([
      [contact, primary, 'contact_to_company'],
      [contact, other, 'contact_to_company_unlabeled'],
    ]);
    expect(await v4Types('companies', String(primary), 'contacts')).toEqual([2, 280]);
    expect(await v4Types('companies', String(other), 'contacts')).toEqual([280]);
  });

  it('adds the type, keeping the types the pair holds', async () => {
    const [deal, company] = await associated('deals', 'companies', 'deal_to_company_unlabeled');

    await batchApi().create('companies', 'deals', {
      inputs: [{ _from: { id: company }, to: { id: deal }, type: 'COMPANY_TO_DEAL' }],
    });

    expect(await v4Types('deals', deal, 'companies')).toEqual([5, 341]);
  });

  it('answers 207 listing a missing record with INVALID_OBJECT_IDS, and writes the other inputs', async () => {
    const [company, contact] = await newPair('companies', 'contacts');
    const missing = '999999999998';

    const answer = await batchApi().createWithHttpInfo('companies', 'contacts', {
      inputs: [
        { _from: { id: company }, to: { id: missing }, type: 'company_to_contact_unlabeled' },
        { _from: { id: company }, to: { id: contact }, type: 'company_to_contact_unlabeled' },
      ],
    });

    expect(answer.httpStatusCode).toBe(207);
    expect(answer.data.results.map((result) => result.to.id)).toEqual([contact]);
    expect('numErrors' in answer.data && answer.data.numErrors).toBe(1);
    expect('errors' in answer.data && answer.data.errors?.[0]).toMatchObject({
      status: 'error',
      category: 'VALIDATION_ERROR',
      message: 'One or more associations are invalid',
      context: { INVALID_OBJECT_IDS: [`CONTACT=${missing} is not valid`] },
    });
    expect(await v4Types('contacts', contact, 'companies')).toEqual([279]);
  });

  it('answers 207 for a type that does not fit the pair, naming it', async () => {
    const [deal, ticket] = await newPair('deals', 'tickets');

    const answer = await batchApi().createWithHttpInfo('deals', 'tickets', {
      inputs: [
        { _from: { id: deal }, to: { id: ticket }, type: 'contact_to_company' },
        { _from: { id: deal }, to: { id: ticket }, type: '28' },
      ],
    });

    expect(answer.httpStatusCode).toBe(207);
    expect(answer.data.results).toEqual([]);
    expect('errors' in answer.data && answer.data.errors?.map((error) => [error.subCategory, error.context])).toEqual([
      ['crm.associations.INVALID_ASSOCIATION_TYPE', expect.objectContaining({ type: ['contact_to_company'] })],
      ['crm.associations.INVALID_ASSOCIATION_TYPE', expect.objectContaining({ type: ['28'] })],
    ]);
    expect(await v4Types('deals', deal, 'tickets')).toEqual([]);
  });
});

describe('crm.associations.batchApi.read', () => {
  it('answers 200 with each associated record once per type, named as seen from the path’s first type', async () => {
    const [contact, company] = await associated('contacts', 'companies', 'contact_to_company');

    const fromCompany = await batchApi().readWithHttpInfo('companies', 'contacts', { inputs: [{ id: company }] });
    const fromContact = await batchApi().read('contacts', 'companies', { inputs: [{ id: contact }] });

    expect(fromCompany.httpStatusCode).toBe(200);
    expect(fromCompany.data.results).toEqual([
      {
        _from: { id: company },
        to: [
          { id: contact, type: 'company_to_contact' },
          { id: contact, type: 'company_to_contact_unlabeled' },
        ],
      },
    ]);
    expect(fromContact.results[0]?.to).toEqual([
      { id: company, type: 'contact_to_company' },
      { id: company, type: 'contact_to_company_unlabeled' },
    ]);
  });

  it('answers 207 with NO_ASSOCIATIONS_FOUND for a record without any', async () => {
    const [deal, ticket] = await associated('deals', 'tickets', 'deal_to_ticket');
    const lonely = await createRecord(sdk.api, 'deals');

    const answer = await batchApi().readWithHttpInfo('deals', 'tickets', { inputs: [{ id: deal }, { id: lonely }] });

    expect(answer.httpStatusCode).toBe(207);
    expect(answer.data.results.map((result) => [result._from.id, result.to])).toEqual([
      [deal, [{ id: ticket, type: 'deal_to_ticket' }]],
    ]);
    expect('errors' in answer.data && answer.data.errors?.map((error) => error.subCategory)).toEqual([
      'crm.associations.NO_ASSOCIATIONS_FOUND',
    ]);
  });
});

describe('crm.associations.batchApi.archive', () => {
  it('answers 204; removing the primary type leaves the unlabeled one, removing that removes the pair', async () => {
    const [contact, company] = await associated('contacts', 'companies', 'contact_to_company');
    const pair = { _from: { id: contact }, to: { id: company } };

    const primary = await batchApi().archiveWithHttpInfo('contacts', 'companies', {
      inputs: [{ ...pair, type: 'contact_to_company' }],
    });
    const afterPrimary = await v4Types('companies', company, 'contacts');
    const unlabeled = await batchApi().archiveWithHttpInfo('contacts', 'companies', {
      inputs: [{ ...pair, type: 'contact_to_company_unlabeled' }],
    });

    expect(primary.httpStatusCode).toBe(204);
    expect(afterPrimary).toEqual([280]);
    expect(unlabeled.httpStatusCode).toBe(204);
    expect(await v4Types('companies', company, 'contacts')).toEqual([]);
    expect(await v4Types('contacts', contact, 'companies')).toEqual([]);
  });

  it('removes a pair between a deal and a ticket from the ticket’s side', async () => {
    const [deal, ticket] = await associated('deals', 'tickets', 'deal_to_ticket');

    await batchApi().archive('tickets', 'deals', {
      inputs: [{ _from: { id: ticket }, to: { id: deal }, type: 'ticket_to_deal' }],
    });

    expect(await v4Types('deals', deal, 'tickets')).toEqual([]);
  });
});

describe('crm.associations.schema.typesApi.getAll', () => {
  it('answers 200 with the pair’s types as seen from the first type, ids as strings', async () => {
    const contactsToCompanies = await sdk.client.crm.associations.schema.typesApi.getAll('contacts', 'companies');
    const dealsToTickets = await sdk.client.crm.associations.schema.typesApi.getAll('deals', 'tickets');

    expect(contactsToCompanies.results).toEqual(
      expect.arrayContaining([
        { id: '1', name: 'contact_to_company' },
        { id: '279', name: 'contact_to_company_unlabeled' },
      ]),
    );
    expect(dealsToTickets.results).toEqual([{ id: '27', name: 'deal_to_ticket' }]);
  });

  it("lists the account's custom labels, whose names the batches take", async () => {
    const name = unique('v3_label').replaceAll('-', '_');
    const created = await sdk.client.crm.associations.v4.schema.definitionsApi.create('contacts', 'companies', {
      name,
      label: 'v3 label',
      inverseLabel: 'v3 inverse',
    });
    const typeId = String(created.results.find((result) => result.label === 'v3 label')?.typeId);

    const listed = await sdk.client.crm.associations.schema.typesApi.getAll('contacts', 'companies');
    const [contact, company] = await associated('contacts', 'companies', name);
    const fromCompany = await batchApi().read('companies', 'contacts', { inputs: [{ id: company }] });

    expect(listed.results).toContainEqual({ id: typeId, name });
    expect(fromCompany.results[0]?.to).toEqual([{ id: contact, type: `${name}_inverse` }]);
  });
});

describe('over plain HTTP', () => {
  it('refuses an input without a type with a 400 naming the field, writing nothing', async () => {
    const [contact, company] = await newPair('contacts', 'companies');

    const response = await sdk.api.post('/crm/v3/associations/contacts/companies/batch/create', {
      inputs: [{ from: { id: contact }, to: { id: company } }],
    });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
    expect(response.body.errors).toEqual([expect.objectContaining({ code: 'REQUIRED', in: 'body.inputs.0.type' })]);
    expect(await v4Types('contacts', contact, 'companies')).toEqual([]);
  });

  it('refuses an archive naming an unknown type with a 400 naming its input, removing nothing', async () => {
    const [contact, company] = await associated('contacts', 'companies', 'contact_to_company_unlabeled');

    const response = await sdk.api.post('/crm/v3/associations/contacts/companies/batch/archive', {
      inputs: [
        { from: { id: contact }, to: { id: company }, type: 'contact_to_company_unlabeled' },
        { from: { id: contact }, to: { id: company }, type: 'no_such_type' },
      ],
    });

    expect(response.status).toBe(400);
    expect(response.body.context).toMatchObject({ type: ['no_such_type'], input: ['1'] });
    expect(await v4Types('contacts', contact, 'companies')).toEqual([279]);
  });

  it("needs the path's first type's scope: a contacts-only token may write contacts to deals, not deals to contacts", async () => {
    const scopes = ['oauth', 'crm.objects.contacts.read', 'crm.objects.contacts.write'];
    const contactsOnly = crmClient(sdk.gateway, (await install(sdk.gateway, { scopes })).accessToken);
    const contact = await createRecord(contactsOnly, 'contacts');
    const pair = (from: string, to: string, type: string) => ({
      inputs: [{ from: { id: from }, to: { id: to }, type }],
    });

    const fromContact = await contactsOnly.post(
      '/crm/v3/associations/contacts/deals/batch/create',
      pair(contact, '999999999997', 'contact_to_deal'),
    );
    const fromDeal = await contactsOnly.post(
      '/crm/v3/associations/deals/contacts/batch/create',
      pair('999999999997', contact, 'deal_to_contact'),
    );
    const readFromDeal = await contactsOnly.post('/crm/v3/associations/deals/contacts/batch/read', {
      inputs: [{ id: '999999999997' }],
    });

    // The contact's write scope lets the call through to the records: the deal is missing in this account.
    expect(fromContact.status).toBe(207);
    expect(fromContact.body.errors?.[0]?.context).toEqual({ INVALID_OBJECT_IDS: ['DEAL=999999999997 is not valid'] });
    expect([fromDeal.status, fromDeal.body.category]).toEqual([403, 'MISSING_SCOPES']);
    expect([readFromDeal.status, readFromDeal.body.category]).toEqual([403, 'MISSING_SCOPES']);
  });
});
