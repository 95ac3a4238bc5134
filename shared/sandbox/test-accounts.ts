import { randomBytes } from 'node:crypto';
import { createUser, hasControlCharacter } from '../admin/provisioning';
import { holdAccountWrites, purgeAccount } from '../db/account-purge';
import { companyKeys } from '../companies/company-keys';
import { nextSequenceValue } from '../db/counters';
import { endInstall, findInstallState } from '../db/install-states';
import { listOwnerPage } from '../db/owners';
import {
  insertTestAccount,
  listTestAccounts,
  markTestAccountEnding,
  maxTestAccountsPerDeveloper,
  removeTestAccountLink,
  type TestAccountLink,
} from '../db/test-accounts';
import { deleteUser } from '../db/users';
import { findInstalledApps } from '../db/webhooks';
import { ValidationError } from '../base/errors';
import { continueLater, notFound, requireTestAccount, reserveMs, type Developer } from './access';
import { forgetInstallState } from '../oauth/install-status';

/** The search tag of a type the purge finds by id: companies' (their keys carry no type id); every other type's is `<id>#`. */
export const purgedTypeOf = (typeId: string) => (typeId === companyKeys.id ? companyKeys : undefined);

export interface TestAccountView {
  hubId: number;
  domain: string;
  name: string;
  createdAt: string;
}

const viewOf = (link: TestAccountLink): TestAccountView => ({
  hubId: link.hubId,
  domain: link.domain,
  name: link.name,
  createdAt: link.createdAt,
});

const maxNameLength = 100;

/** A test account's domain: its own, under a name no real domain has (RFC 2606 `.test`). */
const testAccountDomain = (hubId: number): string => `test-${hubId}.sandbox.test`;

/**
 * A new test account of the developer account: an account like any other (limits, the ordered
 * index) marked with its developer, listed for it, and its one user (the owner installs act as).
 * At most 10 per developer account; the cap is a condition of the create's transaction. The user is
 * a second write: if it fails, the account goes again, so nothing half-made stays.
 */
export async function createTestAccount(developer: Developer, input: { name?: string }): Promise<TestAccountView> {
  const name = (input.name ?? '').trim();
  if (name.length > maxNameLength || hasControlCharacter(name))
    throw new ValidationError(`name must be at most ${maxNameLength} characters without control characters`, {
      context: { name: [input.name ?? ''] },
    });
  const hubId = await nextSequenceValue('hubId', 40000001);
  const account = {
    hubId,
    domain: testAccountDomain(hubId),
    name: name === '' ? `Test account ${hubId}` : name,
    createdAt: new Date().toISOString(),
    isOrderIndexed: true,
    developerId: developer.developerId,
  };
  const outcome = await insertTestAccount(account);
  if (outcome !== 'created')
    throw new ValidationError(
      `A developer account may have at most ${maxTestAccountsPerDeveloper} test accounts; delete one first.`,
      { context: { testAccounts: [String(maxTestAccountsPerDeveloper)] } },
    );
  try {
    await createUser(`owner@${account.domain}`, randomBytes(24).toString('base64url'), [hubId], {
      firstName: 'Test',
      lastName: 'Owner',
    });
  } catch (error) {
    await purgeAccount(hubId, 'delete', () => false, purgedTypeOf);
    await removeTestAccountLink(developer.developerId, hubId);
    throw error;
  }
  return { hubId, domain: account.domain, name: account.name, createdAt: account.createdAt };
}

export async function listDeveloperTestAccounts(developer: Developer): Promise<{ results: TestAccountView[] }> {
  return { results: (await listTestAccounts(developer.developerId)).map(viewOf) };
}

/**
 * Removes every CRM record, association, custom property, label, pipeline change, custom object
 * type, timeline event and webhook delivery log entry of the account (shared/db/account-purge.ts);
 * installs, owners, webhook settings and subscriptions stay. While it runs, the account's calls
 * answer 503 with Retry-After and nothing they would write commits (its write hold). An account too
 * large for one call answers 503 with Retry-After: calling again continues where it stopped, and
 * the account stays held until a call finishes.
 */
export async function resetTestAccount(developer: Developer, hubIdText: string, deadlineMs: number): Promise<void> {
  const link = await requireTestAccount(developer, hubIdText);
  const outcome = await purgeAccount(
    link.hubId,
    'reset',
    () => performance.now() > deadlineMs - reserveMs,
    purgedTypeOf,
  );
  if (outcome === 'partial') throw continueLater('reset');
}

/**
 * Marks the account as ending first (one conditional write on its link: from then on installs and
 * every other control answer 404), puts its write hold (shared/db/write-guard.ts: from then on no
 * install or other write of the account commits, and its tokens' calls answer 401), then ends every
 * install of the account (their refresh tokens stop at once, access tokens at their next call: the
 * install states stay, ended), removes every item of the account, ends again any install found
 * then, and removes its user and the listing. Calling again continues an unfinished delete.
 */
export async function deleteTestAccount(developer: Developer, hubIdText: string, deadlineMs: number): Promise<void> {
  const link = await requireTestAccount(developer, hubIdText, { whileEnding: true });
  const endedAt = new Date().toISOString();
  if (!(await markTestAccountEnding(developer.developerId, link.hubId, endedAt))) throw notFound(hubIdText);
  await holdAccountWrites(link.hubId, 'delete');
  await endInstalls(link.hubId, endedAt);
  const owners = await listOwnerPage(link.hubId, { limit: 10, isArchived: false });
  const outcome = await purgeAccount(
    link.hubId,
    'delete',
    () => performance.now() > deadlineMs - reserveMs,
    purgedTypeOf,
  );
  if (outcome === 'partial') throw continueLater('delete');
  await endInstalls(link.hubId, endedAt);
  for (const owner of owners.owners) if (owner.email.endsWith(`@${link.domain}`)) await deleteUser(owner.email);
  await removeTestAccountLink(developer.developerId, link.hubId);
}

/** Ends every live install of the account (one Query of its installs, a state read and a transaction each). */
async function endInstalls(hubId: number, endedAt: string): Promise<void> {
  for (const install of await findInstalledApps(hubId)) {
    const state = await findInstallState(hubId, install.appId);
    if (state?.endedAt === undefined) await endInstall(hubId, install.appId, state?.generation ?? '', endedAt);
    forgetInstallState(hubId, install.appId);
  }
}
