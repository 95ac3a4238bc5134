import { tableName } from './client';
import { getItem, transact, type Item, type TransactItem } from './core';
import { nextSequenceValue } from './counters';
import { listFoldersKey, listKey } from './keys';

/** A folder as stored: where it is and when it changed (its lists are the tree's `L<folderId>` set). */
export interface StoredFolder {
  folderId: string;
  name: string;
  parentFolderId: string;
  createdAt: string;
  updatedAt: string;
  updatedContentsAt: string;
  userId: number;
}

/**
 * The account's folders as read: the version structural changes are conditioned on (undefined when
 * the account has never had a folder), every folder by id and the lists each holds.
 */
export interface FolderTree {
  version: number | undefined;
  folders: Map<string, StoredFolder>;
  listsByFolder: Map<string, number[]>;
}

const folderAttribute = (folderId: string): string => `F${folderId}`;
const listsAttribute = (folderId: string): string => `L${folderId}`;

function treeOf(item: Item | undefined): FolderTree {
  const folders = new Map<string, StoredFolder>();
  const listsByFolder = new Map<string, number[]>();
  for (const [name, value] of Object.entries(item ?? {})) {
    if (name.startsWith('F') && typeof value === 'object' && value !== null)
      folders.set(name.slice(1), { ...(value as Omit<StoredFolder, 'folderId'>), folderId: name.slice(1) });
    else if (name.startsWith('L') && value instanceof Set)
      listsByFolder.set(
        name.slice(1),
        [...(value as Set<number>)].map(Number).sort((a, b) => a - b),
      );
  }
  return { version: typeof item?.version === 'number' ? item.version : undefined, folders, listsByFolder };
}

/** The account's folder tree: one consistent GetItem. */
export async function readFolderTree(hubId: number): Promise<FolderTree> {
  return treeOf(await getItem(listFoldersKey(hubId)));
}

/** The next folder id: one sequence for every account (a reset never hands an id out again), from 100001. */
export async function allocateFolderId(): Promise<string> {
  return String(await nextSequenceValue('listFolderId', 100_001));
}

/**
 * Puts and removes folders of the tree as it was read (its version): 'changed' when another
 * change of the tree came first. A removed folder must hold no list at that moment (a list's move
 * into it changes no version, so the set's absence is a condition of its own).
 */
export async function changeFolders(
  hubId: number,
  tree: FolderTree,
  change: { put: readonly StoredFolder[]; remove: readonly string[] },
): Promise<'written' | 'changed'> {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':one': 1 };
  const sets: string[] = [];
  change.put.forEach(({ folderId, ...folder }, index) => {
    names[`#p${index}`] = folderAttribute(folderId);
    const stored = tree.folders.get(folderId);
    if (!stored) {
      values[`:p${index}`] = folder;
      sets.push(`#p${index} = :p${index}`);
      return;
    }
    // A folder that exists gets only the fields that change: a list's move into it sets its
    // updatedContentsAt without changing the version, and a rename must not put the old time back.
    for (const [field, value] of Object.entries(folder)) {
      if (stored[field as keyof StoredFolder] === value) continue;
      const at = `${index}_${Object.keys(names).length}`;
      names[`#f${at}`] = field;
      values[`:f${at}`] = value;
      sets.push(`#p${index}.#f${at} = :f${at}`);
    }
  });
  const conditions = [tree.version === undefined ? 'attribute_not_exists(pk)' : '#version = :version'];
  if (tree.version !== undefined) values[':version'] = tree.version;
  const removals = change.remove.map((folderId, index) => {
    names[`#r${index}`] = folderAttribute(folderId);
    names[`#l${index}`] = listsAttribute(folderId);
    conditions.push(`attribute_not_exists(#l${index})`);
    return `#r${index}`;
  });
  const outcome = await transact([
    {
      role: 'tree',
      write: {
        Update: {
          TableName: tableName,
          Key: listFoldersKey(hubId),
          UpdateExpression: `${sets.length > 0 ? `SET ${sets.join(', ')} ` : ''}${removals.length > 0 ? `REMOVE ${removals.join(', ')} ` : ''}ADD #version :one`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    },
  ]);
  if (outcome.committed) return 'written';
  if (outcome.reasons.some((reason) => reason.code === 'ConditionalCheckFailed')) return 'changed';
  throw outcome.error;
}

/**
 * The write that takes a list out of folder `from` and puts it in folder `to` (either may be the
 * root, '0', which holds no set: a list is in the root when it is in no folder), for the
 * transaction that changes the list; each folder named must exist, and its updatedContentsAt
 * becomes `at`. Undefined when nothing changes.
 */
export function folderListsWrite(
  hubId: number,
  change: { listId: string; from: string; to: string; at: string },
): TransactItem | undefined {
  if (change.from === change.to) return undefined;
  const names: Record<string, string> = { '#contents': 'updatedContentsAt' };
  const values: Record<string, unknown> = { ':list': new Set([Number(change.listId)]), ':at': change.at };
  const sets: string[] = [];
  const actions: string[] = [];
  const conditions: string[] = [];
  for (const [side, folderId, action] of [
    ['from', change.from, 'DELETE'],
    ['to', change.to, 'ADD'],
  ] as const) {
    if (folderId === '0') continue;
    names[`#${side}F`] = folderAttribute(folderId);
    names[`#${side}L`] = listsAttribute(folderId);
    sets.push(`#${side}F.#contents = :at`);
    actions.push(`${action} #${side}L :list`);
    conditions.push(`attribute_exists(#${side}F)`);
  }
  return {
    Update: {
      TableName: tableName,
      Key: listFoldersKey(hubId),
      UpdateExpression: `SET ${sets.join(', ')} ${actions.join(' ')}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Moves a list (not deleted, in folder `from` as read) to folder `to`, the list's item and the
 * tree's sets in one transaction: 'changed' when the list or either folder changed meanwhile.
 */
export async function moveListBetweenFolders(
  hubId: number,
  change: { listId: string; from: string; to: string; at: string },
): Promise<'moved' | 'changed'> {
  const folderWrite = folderListsWrite(hubId, change);
  if (!folderWrite) return 'moved';
  const outcome = await transact<'list' | 'folder'>([
    {
      role: 'list',
      write: {
        Update: {
          TableName: tableName,
          Key: listKey(hubId, change.listId),
          UpdateExpression: 'SET listFolderId = :to',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt) AND listFolderId = :from',
          ExpressionAttributeValues: { ':to': Number(change.to), ':from': Number(change.from) },
        },
      },
    },
    { role: 'folder', write: folderWrite },
  ]);
  if (outcome.committed) return 'moved';
  if (outcome.reasons.some((reason) => reason.code === 'ConditionalCheckFailed')) return 'changed';
  throw outcome.error;
}
