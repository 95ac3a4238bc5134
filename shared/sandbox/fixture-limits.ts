/** The bounds of one fixtures call (shared/sandbox/fixtures.ts; docs/testing-your-integration.md, Fixtures). */

/** The records one call loads within the function's time, with room to remove them again (docs/testing-your-integration.md). */
export const maxFixtureRecords = 200;
/**
 * The associations one call loads within the function's time with room to remove them again: on a
 * loaded 2-core machine, 200 records with 2,000 associations linking them into one group of writes
 * loaded in 3.8 to 12.3 s of the 29 s and removing them took 1.7 to 8.7 s, where 4,000 and 6,000 did
 * not fit (docs/testing-your-integration.md).
 */
export const maxFixtureAssociations = 2000;
/** The lists one call creates (docs/testing-your-integration.md). */
export const maxFixtureLists = 20;
/**
 * The memberships one call adds, every list's `members` together (each list's at most 200 distinct
 * records, the call's own): within the list API's 10,000 record ids per membership call
 * (shared/lists/list-limits.ts maxRecordIdsPerCall), and what loads with the maximum of records
 * within the function's time with room to remove it again: on a loaded 2-core machine (load average
 * 7 to 9), 200 records with 20 lists of 100 members loaded in 6.4 to 9.3 s of the 29 s, two or three
 * such calls at once, where 4,000 members answered 503 (docs/testing-your-integration.md).
 */
export const maxFixtureMembers = 2000;
