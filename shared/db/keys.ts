/**
 * Every key format of the single table. Only the repositories in shared/db import this.
 * Hub-owned records share the partition HUB#<hubId>, so tenancy is part of every key.
 */
export interface Key {
  pk: string;
  sk: string;
}

export const counterKey = (name: string): Key => ({ pk: 'COUNTER', sk: name });

// Apps: looked up by client id (authorize, token) and by app id (install records).
export const appByClientKey = (clientId: string): Key => ({ pk: `CLIENT#${clientId}`, sk: 'APP' });
export const appByIdKey = (appId: number): Key => ({ pk: `APP#${appId}`, sk: 'APP' });

export const accountKey = (hubId: number): Key => ({ pk: `HUB#${hubId}`, sk: 'ACCOUNT' });
export const installKey = (hubId: number, appId: number): Key => ({ pk: `HUB#${hubId}`, sk: `INSTALL#${appId}` });

export const userKey = (email: string): Key => ({ pk: `USER#${email}`, sk: 'USER' });
export const loginAttemptsKey = (email: string): Key => ({ pk: `LOGIN#${email}`, sk: 'LOGIN' });

// OAuth secrets are stored only as SHA-256 hashes (hex).
export const authCodeKey = (codeHash: string): Key => ({ pk: `CODE#${codeHash}`, sk: 'CODE' });
export const usedCodeKey = (codeHash: string): Key => ({ pk: `USEDCODE#${codeHash}`, sk: 'USEDCODE' });
export const refreshTokenKey = (tokenHash: string): Key => ({ pk: `REFRESH#${tokenHash}`, sk: 'REFRESH' });
export const grantKey = (grantId: string): Key => ({ pk: `GRANT#${grantId}`, sk: 'GRANT' });

// Legacy timeline. An event type lives in its app's partition, next to its properties and one claim
// per property name (uniqueness); the trailing '#' keeps type 1's prefix from matching type 12.
export const timelineTypePrefix = (eventTypeId: number): string => `TIMELINE_TYPE#${eventTypeId}#`;
export const timelineTypesPrefix = 'TIMELINE_TYPE#';
export const appPartition = (appId: number): string => `APP#${appId}`;
export const timelineEventTypeKey = (appId: number, eventTypeId: number): Key =>
  ({ pk: appPartition(appId), sk: `${timelineTypePrefix(eventTypeId)}TYPE` });
export const timelinePropertyKey = (appId: number, eventTypeId: number, propertyId: number): Key =>
  ({ pk: appPartition(appId), sk: `${timelineTypePrefix(eventTypeId)}PROPERTY#${propertyId}` });
export const timelinePropertyNameKey = (appId: number, eventTypeId: number, name: string): Key =>
  ({ pk: appPartition(appId), sk: `${timelineTypePrefix(eventTypeId)}PROPERTY_NAME#${name}` });
// Event ids are unique per event type across all hubs (as in HubSpot), so the hub is an attribute, not part of the key;
// eventTypeId is digits only, so the '#' separator stays unambiguous.
export const timelineEventKey = (eventTypeId: number, eventId: string): Key =>
  ({ pk: `TIMELINE_EVENT#${eventTypeId}#${eventId}`, sk: 'EVENT' });

// CRM records of a hub. Company ids are fixed-width numeric strings, so the sort key orders them.
export const companyKey = (hubId: number, companyId: string): Key => ({ pk: `HUB#${hubId}`, sk: `COMPANY#${companyId}` });
