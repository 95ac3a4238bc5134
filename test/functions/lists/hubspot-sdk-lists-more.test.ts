import { unique } from '../../support/harness';
import { sdkError, useSdkClient } from '../../support/sdk-client';

/**
 * crm.lists' legacy id translation, scheduled conversion and record memberships through the official
 * SDK (`mappingApi`, `listsApi`, `batchApi`), each also on its dated spelling through the plain client.
 */
const sdk = useSdkClient();

const manualList = (name: string, objectTypeId = '0-2') => ({ name, objectTypeId, processingType: 'MANUAL' });
const legacyIdOf = (listId: string) => String(Number(listId) - 200_000_000);

describe('crm.lists.mappingApi', () => {
  it('translates a legacy id (200) and several (200, unknown ones in missingLegacyListIds); an unknown one alone answers 404', async () => {
    const api = sdk.client.crm.lists.mappingApi;
    const { list } = await sdk.client.crm.lists.listsApi.create(manualList(unique('SDK legacy')));
    const legacyListId = legacyIdOf(list.listId);

    const one = await api.translateLegacyListIdToListIdWithHttpInfo(legacyListId);
    const several = await api.translateLegacyListIdToListIdBatchWithHttpInfo([
      legacyListId,
      '799999999',
      'x',
      legacyListId,
    ]);
    const unknown = await sdkError(api.translateLegacyListIdToListId('799999999'));
    const none = await sdkError(api.translateLegacyListIdToListId());
    const dated = await sdk.api.get(`/crm/lists/2026-03/idmapping?legacyListId=${legacyListId}`);
    const datedSeveral = await sdk.api.post('/crm/lists/2026-09/idmapping', [legacyListId]);

    expect([one.httpStatusCode, several.httpStatusCode, dated.status, datedSeveral.status]).toEqual([
      200, 200, 200, 200,
    ]);
    expect(one.data).toEqual({ legacyListId, listId: list.listId });
    expect(several.data).toEqual({
      legacyListIdsToIdsMapping: [{ legacyListId, listId: list.listId }],
      missingLegacyListIds: ['799999999', 'x'],
    });
    expect(unknown).toMatchObject({
      code: 404,
      body: { category: 'OBJECT_NOT_FOUND', context: { legacyListId: ['799999999'] } },
    });
    expect(none).toMatchObject({ code: 400, body: { context: { legacyListId: [''] } } });
    expect(dated.body).toEqual({ legacyListId, listId: list.listId });
    expect(datedSeveral.body).toEqual({
      legacyListIdsToIdsMapping: [{ legacyListId, listId: list.listId }],
      missingLegacyListIds: [],
    });
  });

  it('maps a deleted list while it can be restored, and refuses more than 10,000 ids (400)', async () => {
    const api = sdk.client.crm.lists.mappingApi;
    const { list } = await sdk.client.crm.lists.listsApi.create(manualList(unique('SDK legacy deleted')));
    await sdk.client.crm.lists.listsApi.remove(list.listId);
    const tooMany = Array.from({ length: 10_001 }, (_, index) => String(index + 1));

    const deleted = await api.translateLegacyListIdToListId(legacyIdOf(list.listId));
    const refused = await sdkError(api.translateLegacyListIdToListIdBatch(tooMany));

    expect(deleted.listId).toBe(list.listId);
    expect(refused.code).toBe(400);
  });
});
