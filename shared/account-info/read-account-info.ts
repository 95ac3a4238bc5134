import { NotFoundError } from '../base/errors';
import { findAccount } from '../db/accounts';
import { accountDetailsOf, privateAppsDailyUsage, type AccountDetails, type ApiUsage } from './account-details';

/** The token's account, read once (one GetItem, eventually consistent: the fields read never change); a deleted one answers 404. */
async function requireAccount(hubId: number) {
  const account = await findAccount(hubId);
  if (!account) throw new NotFoundError(`Account ${hubId} does not exist`, { context: { portalId: [String(hubId)] } });
  return account;
}

/** The account's details: a test account (one its developer account created) is DEVELOPER_TEST. */
export async function readAccountDetails(hubId: number): Promise<AccountDetails> {
  const account = await requireAccount(hubId);
  return accountDetailsOf({ hubId, isTestAccount: account.developerId !== undefined });
}

/** The daily API usage of the account's private apps: none, whatever the account (see privateAppsDailyUsage). */
export async function readPrivateAppsDailyUsage(hubId: number): Promise<{ results: ApiUsage[] }> {
  await requireAccount(hubId);
  return privateAppsDailyUsage();
}
