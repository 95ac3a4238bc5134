/**
 * The bounds of the lists API (docs/lists.md, Limits). HubSpot's spec states none for a membership
 * call; these keep every request's work inside one function call.
 */
export const listLimits = {
  /** Lists of an account, deleted ones not counted. */
  maxListsPerAccount: 1500,
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
  /** Legacy ids one batch translation names (HubSpot's 10,000). */
  maxLegacyIdsPerTranslation: 10_000,
  /** Memberships of a list deleted more than 90 days ago that one call purges (three items each). */
  maxMembershipsPurgedPerCall: 100,
} as const;
