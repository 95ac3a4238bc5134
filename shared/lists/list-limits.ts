/**
 * The bounds of the lists API (docs/lists.md, Limits). HubSpot's spec states none for a membership
 * call; these keep every request's work inside one function call.
 */
export const listLimits = {
  /** Lists of an account, deleted ones not counted. */
  maxListsPerAccount: 1500,
  /**
   * DYNAMIC lists of one object type in an account (deleted ones not counted): every write of a
   * record of the type evaluates each, and a membership that begins or ends takes four of its
   * transaction's 100 items (three membership items and the list's size counter).
   */
  maxDynamicListsPerType: 10,
  /** Record ids in one add, remove or add-and-remove call (both arrays together). */
  maxRecordIdsPerCall: 10_000,
  /** Members of a source list an add-from copies, and of a list a clear empties (HubSpot's is 100,000). */
  maxMembersCopiedOrCleared: 10_000,
  /** Characters of a list name. */
  maxNameLength: 255,
  /** Membership page size: default and most. */
  defaultPageSize: 100,
  maxPageSize: 250,
  /** List search page size: default and most. */
  defaultSearchCount: 20,
  maxSearchCount: 500,
  /** Records one batch read of record memberships names. */
  maxRecordsPerBatchRead: 100,
  /** Folders of an account, and characters of a folder name: the tree is one item (shared/db/list-folders.ts). */
  maxFoldersPerAccount: 500,
  maxFolderNameLength: 100,
  /** Levels of folders below the root (a folder in the root is at level 1). */
  maxFolderDepth: 10,
  /** Legacy ids one batch translation names (HubSpot's 10,000). */
  maxLegacyIdsPerTranslation: 10_000,
  /** Memberships of a list deleted more than 90 days ago that one call purges (three items each). */
  maxMembershipsPurgedPerCall: 100,
} as const;
