import { nowMs } from '../base/clock';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '../base/errors';
import {
  allocateFolderId,
  changeFolders,
  moveListBetweenFolders,
  readFolderTree,
  type FolderTree,
  type StoredFolder,
} from '../db/list-folders';
import { listAccountLists } from '../db/lists';
import { listLimits } from './list-limits';
import { requireActiveList, type ListActor } from './manage-lists';

/** A folder on the wire (HubSpot's PublicListFolder); the root, id "0", has no name, times or owner. */
export interface PublicListFolder {
  id: string;
  name?: string;
  parentFolderId: string;
  createdAt?: string;
  updatedAt?: string;
  updatedContentsAt?: string;
  userId?: number;
  childLists: number[];
  childNodes: PublicListFolder[];
}

export const rootFolderId = '0';
/** The root's parent as answered: no folder has this id. */
const rootParentId = '-1';

const nowIso = (): string => new Date(nowMs()).toISOString();

const folderNotFound = (folderId: string, field: string) =>
  new NotFoundError(`No list folder has the id ${folderId}`, { context: { [field]: [folderId] } });

const changedMeanwhile = () =>
  new ServiceUnavailableError('The folders changed while this request ran. Retry the request.', {
    headers: { 'retry-after': '1' },
  });

/** The stored folder of that id (the root is none), else 404 naming `field`. */
function requireFolder(tree: FolderTree, folderId: string, field: string): StoredFolder {
  const folder = tree.folders.get(folderId);
  if (!folder) throw folderNotFound(folderId, field);
  return folder;
}

/** The root or a folder of the tree, else 404 naming `field`. */
function requireFolderOrRoot(tree: FolderTree, folderId: string, field: string): string {
  if (folderId !== rootFolderId) requireFolder(tree, folderId, field);
  return folderId;
}

const notTheRoot = (folderId: string, action: string) => {
  if (folderId === rootFolderId)
    throw new ValidationError(`The root folder (0) cannot be ${action}`, { context: { folderId: [folderId] } });
};

function requireFolderName(name: string, field: string): string {
  if (name.trim() === '' || name.length > listLimits.maxFolderNameLength)
    throw new ValidationError(
      `A folder name is not blank and has at most ${listLimits.maxFolderNameLength} characters`,
      { context: { [field]: [name] } },
    );
  return name;
}

/** The folders of each parent, in id order. */
function childrenByParent(tree: FolderTree): Map<string, StoredFolder[]> {
  const children = new Map<string, StoredFolder[]>();
  for (const folder of tree.folders.values()) {
    const siblings = children.get(folder.parentFolderId) ?? [];
    siblings.push(folder);
    children.set(folder.parentFolderId, siblings);
  }
  for (const siblings of children.values()) siblings.sort((a, b) => Number(a.folderId) - Number(b.folderId));
  return children;
}

/** The level of a folder (the root's is 0), walking up at most the depth bound. */
function levelOf(tree: FolderTree, folderId: string): number {
  let level = 0;
  for (let id = folderId; id !== rootFolderId && level <= listLimits.maxFolderDepth; level += 1)
    id = tree.folders.get(id)?.parentFolderId ?? rootFolderId;
  return level;
}

/** The folder and every folder below it. */
function subtreeOf(children: Map<string, StoredFolder[]>, folderId: string): string[] {
  const found = [folderId];
  for (let index = 0; index < found.length; index += 1)
    for (const child of children.get(found[index] ?? '') ?? []) found.push(child.folderId);
  return found;
}

/** How many levels a folder's subtree spans (1 for a folder without subfolders). */
function heightOf(children: Map<string, StoredFolder[]>, folderId: string): number {
  const below = children.get(folderId) ?? [];
  return 1 + below.reduce((most, child) => Math.max(most, heightOf(children, child.folderId)), 0);
}

/** A sibling of that name, ignoring case, other than `except`. */
function nameClash(children: Map<string, StoredFolder[]>, parentFolderId: string, name: string, except?: string) {
  const lower = name.toLowerCase();
  return (children.get(parentFolderId) ?? []).some(
    (sibling) => sibling.folderId !== except && sibling.name.toLowerCase() === lower,
  );
}

const nameTaken = (name: string, field: string) =>
  new ConflictError(`A folder named ${name} is already in that folder (names are compared ignoring case)`, {
    context: { [field]: [name] },
  });

function nodeOf(children: Map<string, StoredFolder[]>, folder: StoredFolder): PublicListFolder {
  return {
    id: folder.folderId,
    name: folder.name,
    parentFolderId: folder.parentFolderId,
    createdAt: folder.createdAt,
    updatedAt: folder.updatedAt,
    updatedContentsAt: folder.updatedContentsAt,
    userId: folder.userId,
    childLists: [],
    childNodes: (children.get(folder.folderId) ?? []).map((child) => nodeOf(children, child)),
  };
}

/** A folder with every folder below it (childNodes, recursively) and, on it alone, the ids of its lists. */
async function folderView(hubId: number, tree: FolderTree, folderId: string): Promise<PublicListFolder> {
  const children = childrenByParent(tree);
  if (folderId !== rootFolderId) {
    const folder = requireFolder(tree, folderId, 'folderId');
    return { ...nodeOf(children, folder), childLists: tree.listsByFolder.get(folderId) ?? [] };
  }
  // The root's lists are those in no folder: the account's list items, one Query bounded by the cap on lists.
  const lists = await listAccountLists(hubId, listLimits.maxListsPerAccount * 4);
  return {
    id: rootFolderId,
    parentFolderId: rootParentId,
    childLists: lists
      .filter((list) => list.deletedAt === undefined && list.listFolderId === 0)
      .map((list) => Number(list.listId)),
    childNodes: (children.get(rootFolderId) ?? []).map((child) => nodeOf(children, child)),
  };
}

const isFolderId = (value: string): boolean => /^[0-9]{1,12}$/.test(value);

export async function getListFolder(hubId: number, folderId = rootFolderId): Promise<PublicListFolder> {
  if (!isFolderId(folderId)) throw folderNotFound(folderId, 'folderId');
  return folderView(hubId, await readFolderTree(hubId), folderId);
}

export async function createListFolder(
  actor: ListActor,
  input: { name: string; parentFolderId?: string },
): Promise<PublicListFolder> {
  const name = requireFolderName(input.name, 'name');
  const parentFolderId = input.parentFolderId ?? rootFolderId;
  if (!isFolderId(parentFolderId)) throw folderNotFound(parentFolderId, 'parentFolderId');
  const tree = await readFolderTree(actor.hubId);
  requireFolderOrRoot(tree, parentFolderId, 'parentFolderId');
  if (tree.folders.size >= listLimits.maxFoldersPerAccount)
    throw new ValidationError(
      `This account has ${listLimits.maxFoldersPerAccount} list folders, the most it may have`,
      {
        context: { folders: [String(listLimits.maxFoldersPerAccount)] },
      },
    );
  if (levelOf(tree, parentFolderId) + 1 > listLimits.maxFolderDepth)
    throw new ValidationError(`Folders nest at most ${listLimits.maxFolderDepth} levels below the root`, {
      context: { parentFolderId: [parentFolderId] },
    });
  const children = childrenByParent(tree);
  if (nameClash(children, parentFolderId, name)) throw nameTaken(name, 'name');
  const at = nowIso();
  const folder: StoredFolder = {
    folderId: await allocateFolderId(),
    name,
    parentFolderId,
    createdAt: at,
    updatedAt: at,
    updatedContentsAt: at,
    userId: actor.userId,
  };
  if ((await changeFolders(actor.hubId, tree, { put: [folder], remove: [] })) === 'changed') throw changedMeanwhile();
  return { ...nodeOf(new Map(), folder), childLists: [] };
}

/** A folder of the tree named in a path (not the root), else 400 for the root, 404 for an unknown id. */
function requirePathFolder(tree: FolderTree, folderId: string, action: string): StoredFolder {
  notTheRoot(folderId, action);
  return requireFolder(tree, folderId, 'folderId');
}

async function readTreeFor(hubId: number, folderId: string): Promise<FolderTree> {
  if (!isFolderId(folderId)) throw folderNotFound(folderId, 'folderId');
  return readFolderTree(hubId);
}

export async function renameListFolder(
  actor: ListActor,
  folderId: string,
  newFolderName: string | undefined,
): Promise<PublicListFolder> {
  const name = requireFolderName(newFolderName ?? '', 'newFolderName');
  const tree = await readTreeFor(actor.hubId, folderId);
  const folder = requirePathFolder(tree, folderId, 'renamed');
  if (nameClash(childrenByParent(tree), folder.parentFolderId, name, folderId)) throw nameTaken(name, 'newFolderName');
  const renamed: StoredFolder = { ...folder, name, updatedAt: nowIso() };
  if ((await changeFolders(actor.hubId, tree, { put: [renamed], remove: [] })) === 'changed') throw changedMeanwhile();
  tree.folders.set(folderId, renamed);
  return folderView(actor.hubId, tree, folderId);
}

export async function moveListFolder(
  actor: ListActor,
  folderId: string,
  newParentFolderId: string,
): Promise<PublicListFolder> {
  const tree = await readTreeFor(actor.hubId, folderId);
  const folder = requirePathFolder(tree, folderId, 'moved');
  if (!isFolderId(newParentFolderId)) throw folderNotFound(newParentFolderId, 'newParentFolderId');
  requireFolderOrRoot(tree, newParentFolderId, 'newParentFolderId');
  if (folder.parentFolderId === newParentFolderId) return folderView(actor.hubId, tree, folderId);
  const children = childrenByParent(tree);
  if (subtreeOf(children, folderId).includes(newParentFolderId))
    throw new ValidationError(`Folder ${folderId} cannot move into itself or a folder inside it`, {
      context: { newParentFolderId: [newParentFolderId] },
    });
  if (levelOf(tree, newParentFolderId) + heightOf(children, folderId) > listLimits.maxFolderDepth)
    throw new ValidationError(`Folders nest at most ${listLimits.maxFolderDepth} levels below the root`, {
      context: { newParentFolderId: [newParentFolderId] },
    });
  if (nameClash(children, newParentFolderId, folder.name)) throw nameTaken(folder.name, 'name');
  const at = nowIso();
  const moved: StoredFolder = { ...folder, parentFolderId: newParentFolderId, updatedAt: at };
  const parents = [folder.parentFolderId, newParentFolderId]
    .filter((id) => id !== rootFolderId)
    .map((id) => ({ ...requireFolder(tree, id, 'folderId'), updatedContentsAt: at }));
  if ((await changeFolders(actor.hubId, tree, { put: [moved, ...parents], remove: [] })) === 'changed')
    throw changedMeanwhile();
  for (const changed of [moved, ...parents]) tree.folders.set(changed.folderId, changed);
  return folderView(actor.hubId, tree, folderId);
}

export async function moveListToFolder(actor: ListActor, listId: string, newFolderId: string): Promise<void> {
  const list = await requireActiveList(actor.hubId, listId);
  if (!isFolderId(newFolderId)) throw folderNotFound(newFolderId, 'newFolderId');
  if (String(list.listFolderId) === newFolderId) return;
  if (newFolderId !== rootFolderId) requireFolder(await readFolderTree(actor.hubId), newFolderId, 'newFolderId');
  const outcome = await moveListBetweenFolders(actor.hubId, {
    listId,
    from: String(list.listFolderId),
    to: newFolderId,
    at: nowIso(),
  });
  if (outcome === 'changed') throw changedMeanwhile();
}

export async function deleteListFolder(actor: ListActor, folderId: string): Promise<void> {
  const tree = await readTreeFor(actor.hubId, folderId);
  const folder = requirePathFolder(tree, folderId, 'deleted');
  const subfolders = childrenByParent(tree).get(folderId)?.length ?? 0;
  const lists = tree.listsByFolder.get(folderId)?.length ?? 0;
  if (subfolders > 0 || lists > 0)
    throw new ValidationError(
      `Folder ${folderId} is not empty: move or delete the ${subfolders > 0 ? (lists > 0 ? 'folders and lists' : 'folders') : 'lists'} in it first`,
      { context: { folderId: [folderId] } },
    );
  const parent =
    folder.parentFolderId === rootFolderId
      ? []
      : [{ ...requireFolder(tree, folder.parentFolderId, 'folderId'), updatedContentsAt: nowIso() }];
  if ((await changeFolders(actor.hubId, tree, { put: parent, remove: [folderId] })) === 'changed')
    throw changedMeanwhile();
}
