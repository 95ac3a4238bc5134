import { batchGetAll, entity, getItem, putNew } from './core';
import { accountKey } from './keys';

export interface Account {
  hubId: number;
  domain: string;
  createdAt: string;
}

const accountItem = /* @__PURE__ */ entity<Account>({ key: (account) => accountKey(account.hubId) });

/** Hub ids are allocated once, so an existing account is a bug of the caller: it throws. */
export async function insertAccount(account: Account): Promise<void> {
  if (!(await putNew(accountItem.item(account)))) throw new Error(`account ${account.hubId} exists`);
}

export async function findAccount(hubId: number): Promise<Account | undefined> {
  const item = await getItem(accountKey(hubId), false);
  return item ? accountItem.read(item) : undefined;
}

/** The accounts of a user, for the consent page's account picker, in hub id order. */
export async function findAccounts(hubIds: readonly number[]): Promise<Account[]> {
  const items = await batchGetAll(hubIds.map(accountKey), { consistent: false });
  return items.map(accountItem.read).sort((a, b) => a.hubId - b.hubId);
}
