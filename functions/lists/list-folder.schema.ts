/** Folder ids are strings on the wire (HubSpot's spec); the domain answers 404 to one that names no folder. */
const folderId = { type: 'string', minLength: 1, maxLength: 100 } as const;

export const folderQuery = { type: 'object', properties: { folderId } } as const;
export const folderIdPath = { type: 'object', required: ['folderId'], properties: { folderId } } as const;
export const moveFolderPath = {
  type: 'object',
  required: ['folderId', 'newParentFolderId'],
  properties: { folderId, newParentFolderId: folderId },
} as const;
export const renameFolderQuery = { type: 'object', properties: { newFolderName: { type: 'string' } } } as const;

export const createFolderBody = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', maxLength: 1000 }, parentFolderId: folderId },
} as const;

export const moveListBody = {
  type: 'object',
  required: ['listId', 'newFolderId'],
  properties: { listId: { type: 'string', minLength: 1, maxLength: 100 }, newFolderId: folderId },
} as const;
