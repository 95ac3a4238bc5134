import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, unique, useTestGateway } from '../../support/harness';
import { tokenCall, useSandboxDeveloper } from '../../support/sandbox-control';

/**
 * List folders over HTTP on both spellings (`/crm/v3/lists/folders` and `/crm/lists/2026-03/folders`):
 * the bounds (depth, folders per account, names), lists deleted and restored in folders, and a test
 * account's reset.
 */
const gateway = useTestGateway();
const sandbox = useSandboxDeveloper(gateway);

interface FolderJson {
  folder: {
    id: string;
    name?: string;
    parentFolderId: string;
    childLists: number[];
    childNodes: FolderJson['folder'][];
  };
}
interface ErrorJson {
  category: string;
  context?: Record<string, string[]>;
}

const prefixes = [
  ['v3', '/crm/v3/lists'],
  ['2026-03', '/crm/lists/2026-03'],
] as const;

describe.each(prefixes)('list folders on %s', (_version, prefix) => {
  let api: CrmClient;
  beforeAll(async () => {
    api = crmClient(gateway, (await install(gateway)).accessToken);
  });
  const newFolder = async (name: string, parentFolderId?: string): Promise<string> => {
    const created = await api.post<FolderJson>(`${prefix}/folders`, {
      name,
      ...(parentFolderId ? { parentFolderId } : {}),
    });
    expect(created.status).toBe(200);
    return created.body.folder.id;
  };
  const newList = async (listFolderId?: number): Promise<string> => {
    const created = await api.post<{ list: { listId: string } }>(prefix, {
      name: unique('Folder list'),
      objectTypeId: '0-2',
      processingType: 'MANUAL',
      ...(listFolderId === undefined ? {} : { listFolderId }),
    });
    expect(created.status).toBe(200);
    return created.body.list.listId;
  };
  const childLists = async (folderId: string) =>
    (await api.get<FolderJson>(`${prefix}/folders?folderId=${folderId}`)).body.folder.childLists;

  it('nests folders at most 10 levels below the root: a create or a move past it answers 400 naming the parent', async () => {
    const chain = [await newFolder(unique('Level'))];
    for (let level = 2; level <= 10; level += 1) chain.push(await newFolder(`Level ${level}`, chain.at(-1)));
    const deepest = chain.at(-1) ?? '';
    const pair = await newFolder(unique('Pair'));
    await newFolder('Below pair', pair);

    const tooDeep = await api.post<ErrorJson>(`${prefix}/folders`, { name: 'Level 11', parentFolderId: deepest });
    const movedTooDeep = await api.put<ErrorJson>(`${prefix}/folders/${pair}/move/${chain[8]}`);
    const movedToFit = await api.put<FolderJson>(`${prefix}/folders/${pair}/move/${chain[7]}`);

    expect(tooDeep).toMatchObject({ status: 400, body: { context: { parentFolderId: [deepest] } } });
    expect(movedTooDeep).toMatchObject({ status: 400, body: { context: { newParentFolderId: [chain[8]] } } });
    expect(movedToFit.status).toBe(200);
    expect(movedToFit.body.folder).toMatchObject({ id: pair, parentFolderId: chain[7] });
    expect(movedToFit.body.folder.childNodes).toHaveLength(1);
  });

  it('refuses blank, missing and too long names (400 naming the field) and writes nothing', async () => {
    const name = unique('Named');
    const folder = await newFolder(name);
    const before = await api.get<FolderJson>(`${prefix}/folders`);

    const blank = await api.post<ErrorJson>(`${prefix}/folders`, { name: '  ' });
    const tooLong = await api.post<ErrorJson>(`${prefix}/folders`, { name: 'x'.repeat(101) });
    const noNewName = await api.put<ErrorJson>(`${prefix}/folders/${folder}/rename`);
    const blankNewName = await api.put<ErrorJson>(`${prefix}/folders/${folder}/rename?newFolderName=%20`);
    const after = await api.get<FolderJson>(`${prefix}/folders`);

    expect([blank, tooLong].map((answer) => [answer.status, Object.keys(answer.body.context ?? {})])).toEqual([
      [400, ['name']],
      [400, ['name']],
    ]);
    expect(noNewName).toMatchObject({ status: 400, body: { context: { newFolderName: [''] } } });
    expect(blankNewName).toMatchObject({ status: 400, body: { context: { newFolderName: [' '] } } });
    expect(after.body).toEqual(before.body);
    expect(after.body.folder.childNodes.find((node) => node.id === folder)?.name).toBe(name);
  });

  it('takes a deleted list out of its folder, and a restore puts it back, or in the root when the folder is gone', async () => {
    const kept = await newFolder(unique('Kept'));
    const dropped = await newFolder(unique('Dropped'));
    const stays = await newList(Number(kept));
    const leaves = await newList(Number(dropped));

    await api.delete(`${prefix}/${stays}`);
    await api.delete(`${prefix}/${leaves}`);
    const keptWhileDeleted = await childLists(kept);
    const droppedDelete = await api.delete(`${prefix}/folders/${dropped}`);
    await api.put(`${prefix}/${stays}/restore`);
    await api.put(`${prefix}/${leaves}/restore`);

    expect(keptWhileDeleted).toEqual([]);
    expect(droppedDelete.status).toBe(204);
    expect(await childLists(kept)).toEqual([Number(stays)]);
    expect(await childLists('0')).toContain(Number(leaves));
    expect(await childLists('0')).not.toContain(Number(stays));
  });
});

describe('list folders of an account', () => {
  it('are at most 500, the longest names included; the next create answers 400 naming folders', async () => {
    const api = crmClient(gateway, (await install(gateway, { limits: { tenSecondlyLimit: 0 } })).accessToken);
    // Names of 100 three-byte characters: the tree item's size at the bound.
    for (let index = 0; index < 500; index += 1) {
      const created = await api.post('/crm/v3/lists/folders', { name: `${index}`.padEnd(100, '€') });
      expect(created.status).toBe(200);
    }

    const past = await api.post<ErrorJson>('/crm/v3/lists/folders', { name: 'One too many' });
    const root = await api.get<FolderJson>('/crm/v3/lists/folders');

    expect(past).toMatchObject({ status: 400, body: { category: 'VALIDATION_ERROR', context: { folders: ['500'] } } });
    expect(root.body.folder.childNodes).toHaveLength(500);
  });

  it('of a test account are removed by a reset, and their ids are not handed out again', async () => {
    const hubId = await sandbox.newTestAccount();
    const answer = await sandbox.control<{ access_token: string }>('POST', `/test-accounts/${hubId}/installs`, {
      appId: sandbox.developer.appId,
      scopes: sandbox.developer.scopes,
    });
    const token = answer.body.access_token;
    const created = await tokenCall<FolderJson>(gateway, token, 'POST', '/crm/v3/lists/folders', {
      name: 'Reset folder',
    });
    const folderId = created.body.folder.id;
    await tokenCall(gateway, token, 'POST', '/crm/v3/lists', {
      name: 'Reset folder list',
      objectTypeId: '0-2',
      processingType: 'MANUAL',
      listFolderId: Number(folderId),
    });

    expect((await sandbox.control('POST', `/test-accounts/${hubId}/reset`)).status).toBe(204);
    const read = await tokenCall<ErrorJson>(gateway, token, 'GET', `/crm/v3/lists/folders?folderId=${folderId}`);
    const root = await tokenCall<FolderJson>(gateway, token, 'GET', '/crm/v3/lists/folders');
    const again = await tokenCall<FolderJson>(gateway, token, 'POST', '/crm/v3/lists/folders', {
      name: 'Reset folder',
    });

    expect(read.status).toBe(404);
    expect(root.body.folder).toMatchObject({ id: '0', childLists: [], childNodes: [] });
    expect(again.status).toBe(200);
    expect(Number(again.body.folder.id)).toBeGreaterThan(Number(folderId));
  });
});
