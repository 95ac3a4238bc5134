import { listOwnerPage, type Owner } from '../db/owners';
import { findTestAccount, type TestAccountLink } from '../db/test-accounts';
import { WriteHeldError, withWriteGuard } from '../db/write-guard';
import { NotFoundError, ServiceUnavailableError } from '../base/errors';

/** Who calls a control: a developer account (its API key) and the apps it owns. */
export interface Developer {
  developerId: number;
  appIds: readonly number[];
}

/**
 * The developer's test account of the path, or 404 whatever else the id names (a standard account,
 * another developer's test account, nothing, one being deleted): one answer, so an id tells a caller
 * nothing. `whileEnding` lets the delete find an account whose delete it continues.
 */
export async function requireTestAccount(
  developer: Developer,
  hubIdText: string,
  options: { whileEnding?: boolean } = {},
): Promise<TestAccountLink> {
  const hubId = Number(hubIdText);
  const link = Number.isSafeInteger(hubId) ? await findTestAccount(developer.developerId, hubId) : undefined;
  // An account whose delete started is gone for every control but the delete itself (which goes on).
  if (!link || (link.endingAt !== undefined && !options.whileEnding)) throw notFound(hubIdText);
  return link;
}

/**
 * Runs a control that writes into the path's test account (fixtures, installs) inside that account's
 * write guard (shared/db/write-guard.ts), so none of its writes commits while a reset or delete
 * holds the account: a reset's hold answers 503 with Retry-After, a delete's the 404 of an account
 * that is gone. The id is read as requireTestAccount reads it; one that names no account needs no guard.
 */
export async function withTestAccountWriteGuard<T>(hubIdText: string, work: () => Promise<T>): Promise<T> {
  const hubId = Number(hubIdText);
  if (!Number.isSafeInteger(hubId)) return work();
  try {
    return await withWriteGuard(hubId, work);
  } catch (error) {
    if (error instanceof WriteHeldError && error.mode === 'delete') throw notFound(hubIdText);
    throw error;
  }
}

/** The 404 of a path's hub id that names no test account of the developer. */
export function notFound(hubIdText: string): NotFoundError {
  return new NotFoundError(`No test account ${hubIdText} of this developer account`, {
    context: { hubId: [hubIdText] },
  });
}

/** A control stops starting work this long before the function's timeout, and asks to be called again. */
export const reserveMs = 3500;

/** The 503 (with Retry-After) of a control that stopped before it finished: calling again continues. */
export function continueLater(what: string): ServiceUnavailableError {
  return new ServiceUnavailableError(
    `The ${what} did not finish within one call (the account holds many items); call again to continue.`,
    { headers: { 'retry-after': '1' } },
  );
}

/** The test account's one user as its owner (made with the account): whom installs and fixtures act as. */
export async function ownerOfTestAccount(hubId: number): Promise<Owner | undefined> {
  return (await listOwnerPage(hubId, { limit: 1, isArchived: false })).owners[0];
}
