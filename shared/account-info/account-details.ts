import { nowMs } from '../base/clock';

/** PortalInformationResponse: what `/account-info/v3/details` answers. */
export interface AccountDetails {
  portalId: number;
  accountType: 'APP_DEVELOPER' | 'DEVELOPER_TEST' | 'SANDBOX' | 'STANDARD';
  timeZone: string;
  companyCurrency: string;
  additionalCurrencies: string[];
  utcOffset: string;
  utcOffsetMilliseconds: number;
  uiDomain: string;
  dataHostingLocation: string;
}

/**
 * The settings every account of this service has: an account stores no time zone, currency or
 * hosting location, so each answers those of a new HubSpot account hosted in North America
 * (docs/account-and-limits.md).
 */
export const accountSettingDefaults = {
  timeZone: 'US/Eastern',
  companyCurrency: 'USD',
  additionalCurrencies: [],
  uiDomain: 'app.hubspot.com',
  dataHostingLocation: 'na1',
} as const;

/** The time zone's offset from UTC at `atMs`, as `-05:00` and in milliseconds (daylight saving time included). */
export function utcOffsetOf(timeZone: string, atMs: number): { utcOffset: string; utcOffsetMilliseconds: number } {
  const zoneName = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(atMs))
    .find((part) => part.type === 'timeZoneName')?.value;
  // `GMT-05:00`, `GMT+05:30`, or `GMT` for UTC itself.
  const match = /^GMT([+-])(\d\d):(\d\d)$/.exec(zoneName ?? '');
  if (!match) return { utcOffset: '+00:00', utcOffsetMilliseconds: 0 };
  const [, sign, hours, minutes] = match;
  const magnitudeMs = (Number(hours) * 60 + Number(minutes)) * 60_000;
  return { utcOffset: `${sign}${hours}:${minutes}`, utcOffsetMilliseconds: sign === '-' ? -magnitudeMs : magnitudeMs };
}

/**
 * The account's details: its hub id, and whether it is a test account (the sandbox controls' accounts
 * are HubSpot's developer test accounts); the rest are the defaults, the offset the time zone's now.
 */
export function accountDetailsOf(
  account: { hubId: number; isTestAccount?: boolean },
  atMs: number = nowMs(),
): AccountDetails {
  return {
    portalId: account.hubId,
    accountType: account.isTestAccount ? 'DEVELOPER_TEST' : 'STANDARD',
    timeZone: accountSettingDefaults.timeZone,
    companyCurrency: accountSettingDefaults.companyCurrency,
    additionalCurrencies: [...accountSettingDefaults.additionalCurrencies],
    ...utcOffsetOf(accountSettingDefaults.timeZone, atMs),
    uiDomain: accountSettingDefaults.uiDomain,
    dataHostingLocation: accountSettingDefaults.dataHostingLocation,
  };
}

/** One day's API usage of one private app (ApiUsage). */
export interface ApiUsage {
  name: string;
  usageLimit: number;
  currentUsage: number;
  collectedAt: string;
  fetchStatus: 'CACHED' | 'FAILURE' | 'NOTFOUND' | 'SUCCESS' | 'TIMEOUT';
  resetsAt?: string;
}

/**
 * The daily API usage of the account's private apps: this service has no private apps (only public
 * apps, over OAuth), so every account answers what a HubSpot account without any does, no results.
 */
export function privateAppsDailyUsage(): { results: ApiUsage[] } {
  return { results: [] };
}
