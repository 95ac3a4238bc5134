import { crmClient, type CrmClient } from './crm-client';
import { install } from './harness';

/** A new account with the default install, and a CRM client on its token: a test's own catalog, counts and caps. */
export async function freshCrmAccount(gateway: {
  readonly baseUrl: string;
}): Promise<{ api: CrmClient; hubId: number }> {
  const installed = await install(gateway);
  return { api: crmClient(gateway, installed.accessToken), hubId: installed.hubId };
}

let counter = 0;
/** A value unique within this run, joined with underscores: a property name when the prefix is one (names take no hyphen). */
export function uniqueUnderscored(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}_${counter}`;
}
