import { Client } from '@hubspot/api-client';
import type { RequestContext } from '@hubspot/api-client/lib/codegen/crm/lists/http/http';
import type { PublicListFolder } from '@hubspot/api-client/lib/codegen/crm/lists/models/PublicListFolder';
import { install, unique, useTestGateway } from '../../support/harness';
import { sdkError } from '../../support/sdk-client';

/**
 * crm.lists.foldersApi through the official SDK, unchanged but for the base URL, on /crm/v3/lists
 * and (a middleware rewriting the SDK's path) on /crm/lists/2026-03: each call checks the exact
 * status (the SDK throws on any other) and that its models parse the answer.
 */
const gateway = useTestGateway();

const toDated = {
  pre(context: RequestContext) {
    context.setUrl(context.getUrl().replace('/crm/v3/lists/', '/crm/lists/2026-03/'));
    return context;
  },
  post: (context: unknown) => context,
};

/** The paths the SDK sent, after the rewrite: each spelling's test checks it sent its own. */
const sentPaths: string[] = [];
const recordPath = {
  pre(context: RequestContext) {
    sentPaths.push(new URL(context.getUrl()).pathname);
    return context;
  },
  post: (context: unknown) => context,
};

const spellings = [
  ['/crm/v3/lists', [recordPath]],
  ['/crm/lists/2026-03', [toDated, recordPath]],
] as const;

/** The SDK types folder ids as numbers; HubSpot's spec (and this service) sends strings. */
const idOf = (folder: PublicListFolder): string => String(folder.id);

describe.each(spellings)('crm.lists.foldersApi on %s', (prefix, middleware) => {
  let client: Client;
  afterAll(() => {
    const folderPaths = sentPaths.splice(0).filter((path) => path.includes('/folders'));
    expect(folderPaths.length).toBeGreaterThan(0);
    expect(folderPaths.filter((path) => !path.startsWith(`${prefix}/folders`))).toEqual([]);
  });
  beforeAll(async () => {
    const installed = await install(gateway);
    client = new Client({
      accessToken: installed.accessToken,
      basePath: gateway.baseUrl,
      numberOfApiCallRetries: 0,
      middleware: [...middleware] as never,
    });
  });
  const newList = async (name: string, listFolderId?: number) =>
    (
      await client.crm.lists.listsApi.create({
        name,
        objectTypeId: '0-2',
        processingType: 'MANUAL',
        ...(listFolderId === undefined ? {} : { listFolderId }),
      })
    ).list.listId;

  it('create (200), getAll (the tree, the folder`s own lists), rename (200), move (200), moveList (204), remove (204)', async () => {
    const api = client.crm.lists.foldersApi;
    const outerName = unique('SDK outer');
    const outer = await api.createWithHttpInfo({ name: outerName });
    const outerId = idOf(outer.data.folder);
    const inner = await api.createWithHttpInfo({ name: 'Inner', parentFolderId: outerId });
    const innerId = idOf(inner.data.folder);
    const listId = await newList(unique('SDK folder list'));
    const moved = await api.moveListWithHttpInfo({ listId, newFolderId: outerId });
    const outerRead = await api.getAllWithHttpInfo(outerId);
    const root = await api.getAllWithHttpInfo();
    const renamed = await api.renameWithHttpInfo(innerId, 'Inner renamed');
    const movedFolder = await api.moveWithHttpInfo(innerId, '0');
    const search = await client.crm.lists.listsApi.doSearch({ listIds: [listId], offset: 0 });
    await api.moveList({ listId, newFolderId: '0' });
    const removedInner = await api.removeWithHttpInfo(innerId);
    const removedOuter = await api.removeWithHttpInfo(outerId);
    const gone = await sdkError(api.getAll(outerId));

    expect([
      outer.httpStatusCode,
      inner.httpStatusCode,
      moved.httpStatusCode,
      outerRead.httpStatusCode,
      root.httpStatusCode,
      renamed.httpStatusCode,
      movedFolder.httpStatusCode,
      removedInner.httpStatusCode,
      removedOuter.httpStatusCode,
      gone.code,
    ]).toEqual([200, 200, 204, 200, 200, 200, 200, 204, 204, 404]);
    expect(outer.data.folder).toMatchObject({ name: outerName, parentFolderId: '0', childLists: [], childNodes: [] });
    expect(outer.data.folder.createdAt).toBeInstanceOf(Date);
    expect(inner.data.folder.parentFolderId).toBe(outerId);
    expect(outerRead.data.folder).toMatchObject({
      id: outerId,
      childLists: [Number(listId)],
      childNodes: [{ id: innerId, name: 'Inner', parentFolderId: outerId, childLists: [], childNodes: [] }],
    });
    expect(root.data.folder).toMatchObject({ id: '0', childLists: [] });
    expect(root.data.folder.childNodes.map(idOf)).toEqual([outerId]);
    expect(root.data.folder.childNodes[0]?.childNodes.map(idOf)).toEqual([innerId]);
    expect(renamed.data.folder).toMatchObject({ id: innerId, name: 'Inner renamed' });
    expect(movedFolder.data.folder).toMatchObject({ id: innerId, parentFolderId: '0' });
    expect(search.lists[0]?.additionalProperties).toMatchObject({ hs_folder_name: outerName });
    expect(gone.body).toMatchObject({ category: 'OBJECT_NOT_FOUND', context: { folderId: [outerId] } });
  });

  it('refuses a move into the folder itself or below it, a second sibling of the same name, and a non-empty delete (400, 409)', async () => {
    const api = client.crm.lists.foldersApi;
    const top = idOf((await api.create({ name: unique('SDK top') })).folder);
    const child = idOf((await api.create({ name: 'Child', parentFolderId: top })).folder);

    const intoItself = await sdkError(api.move(top, top));
    const intoChild = await sdkError(api.move(top, child));
    const sameName = await sdkError(api.create({ name: 'CHILD', parentFolderId: top }));
    const renameClash = await sdkError(
      api.rename(idOf((await api.create({ name: 'Other', parentFolderId: top })).folder), 'child'),
    );
    const nonEmpty = await sdkError(api.remove(top));
    const root = await sdkError(api.remove('0'));

    for (const refused of [intoItself, intoChild])
      expect(refused).toMatchObject({
        code: 400,
        body: { category: 'VALIDATION_ERROR', context: { newParentFolderId: [refused === intoItself ? top : child] } },
      });
    expect(sameName).toMatchObject({ code: 409, body: { category: 'CONFLICT', context: { name: ['CHILD'] } } });
    expect(renameClash).toMatchObject({ code: 409, body: { context: { newFolderName: ['child'] } } });
    expect(nonEmpty).toMatchObject({ code: 400, body: { context: { folderId: [top] } } });
    expect(root).toMatchObject({ code: 400, body: { context: { folderId: ['0'] } } });
    expect((await api.getAll(top)).folder.childNodes.map(idOf)).toHaveLength(2);
  });

  it('answers 404 with the error body to unknown folder ids, and 400 naming listFolderId to a list created in one', async () => {
    const api = client.crm.lists.foldersApi;
    const folder = idOf((await api.create({ name: unique('SDK home') })).folder);

    const unknown = await Promise.all([
      sdkError(api.getAll('999999996')),
      sdkError(api.rename('999999996', 'x')),
      sdkError(api.move('999999996', '0')),
      sdkError(api.remove('999999996')),
      sdkError(api.create({ name: 'Orphan', parentFolderId: '999999996' })),
      sdkError(api.move(folder, '999999996')),
    ]);
    const listId = await newList(unique('SDK homed list'), Number(folder));
    const toUnknown = await sdkError(api.moveList({ listId, newFolderId: '999999996' }));
    const unknownList = await sdkError(api.moveList({ listId: '999999999', newFolderId: folder }));
    const homeless = await sdkError(
      client.crm.lists.listsApi.create({
        name: unique('SDK homeless'),
        objectTypeId: '0-2',
        processingType: 'MANUAL',
        listFolderId: 999999996,
      }),
    );

    expect(
      unknown.map((refused) => [refused.code, refused.body.category, Object.keys(refused.body.context ?? {})]),
    ).toEqual([
      [404, 'OBJECT_NOT_FOUND', ['folderId']],
      [404, 'OBJECT_NOT_FOUND', ['folderId']],
      [404, 'OBJECT_NOT_FOUND', ['folderId']],
      [404, 'OBJECT_NOT_FOUND', ['folderId']],
      [404, 'OBJECT_NOT_FOUND', ['parentFolderId']],
      [404, 'OBJECT_NOT_FOUND', ['newParentFolderId']],
    ]);
    expect(unknown[0]?.body).toMatchObject({ status: 'error', correlationId: expect.any(String) });
    expect((await api.getAll(folder)).folder.childLists).toEqual([Number(listId)]);
    expect(toUnknown).toMatchObject({ code: 404, body: { context: { newFolderId: ['999999996'] } } });
    expect(unknownList).toMatchObject({ code: 404, body: { context: { listId: ['999999999'] } } });
    expect(homeless).toMatchObject({
      code: 400,
      body: { category: 'VALIDATION_ERROR', context: { listFolderId: ['999999996'] } },
    });
  });
});
