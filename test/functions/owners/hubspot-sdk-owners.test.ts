import { useSdkClient } from '../../support/sdk-client';

/** crm.owners through the official SDK, unchanged but for the base URL: exact statuses, models filled. */
const sdk = useSdkClient();

describe('crm.owners.ownersApi', () => {
  it('getPage (200) without a query (/crm/v3/owners) and with one (/crm/v3/owners/?limit=…)', async () => {
    const bare = await sdk.client.crm.owners.ownersApi.getPageWithHttpInfo();
    const limited = await sdk.client.crm.owners.ownersApi.getPageWithHttpInfo(undefined, undefined, 10, false);

    expect([bare.httpStatusCode, limited.httpStatusCode]).toEqual([200, 200]);
    expect(bare.data.results).toHaveLength(1);
    const [owner] = bare.data.results;
    expect(owner).toMatchObject({
      id: expect.stringMatching(/^[0-9]+$/),
      type: 'PERSON',
      archived: false,
      userId: expect.any(Number),
    });
    expect(owner?.createdAt).toBeInstanceOf(Date);
    expect(limited.data.results).toEqual(bare.data.results);
  });

  it('getPage (200) by email', async () => {
    const [owner] = (await sdk.client.crm.owners.ownersApi.getPage()).results;

    const byEmail = await sdk.client.crm.owners.ownersApi.getPage(owner?.email);

    expect(byEmail.results.map((entry) => entry.id)).toEqual([owner?.id]);
  });

  it('getById (200) by owner id and by user id', async () => {
    const [owner] = (await sdk.client.crm.owners.ownersApi.getPage()).results;

    const byId = await sdk.client.crm.owners.ownersApi.getByIdWithHttpInfo(Number(owner?.id));
    const byUser = await sdk.client.crm.owners.ownersApi.getByIdWithHttpInfo(owner?.userId ?? 0, 'userId');

    expect([byId.httpStatusCode, byUser.httpStatusCode]).toEqual([200, 200]);
    expect(byId.data).toEqual(owner);
    expect(byUser.data).toEqual(owner);
  });

  it('throws ApiException 404 with the error body for an unknown owner', async () => {
    const error = await sdk.client.crm.owners.ownersApi.getById(999999999).catch((thrown: unknown) => thrown);

    expect(error).toMatchObject({
      code: 404,
      body: { status: 'error', category: 'OBJECT_NOT_FOUND', context: { ownerId: ['999999999'] } },
    });
  });
});
