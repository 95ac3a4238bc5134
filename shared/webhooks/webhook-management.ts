import type { Scope } from '../oauth/scopes';
import { config } from '../base/config';
import { findRequestedScopes } from '../db/apps';
import { nextSequenceValue } from '../db/counters';
import {
  deleteWebhookSettings,
  deleteWebhookSubscription,
  findWebhookConfig,
  findWebhookSettings,
  findWebhookSubscription,
  insertWebhookSubscription,
  listDeliveryAttempts,
  putWebhookSettings,
  setWebhookSubscriptionActive,
  type DeliveryAttempt,
  type WebhookSettings,
  type WebhookSubscription,
} from '../db/webhooks';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../base/errors';
import {
  eventObjectOf,
  eventObjectTypeIds,
  genericEventTypes,
  isGenericEventType,
  isWebhookEventType,
  maxConcurrentRequestsLimit,
  maxSubscriptionsPerApp,
  readScopesOfEventType,
  unsubscribableProperties,
  webhookEventTypes,
} from './subscription-types';
import { findObjectType, objectTypeById, storedObjectTypes } from '../objects/object-types';
import { isAllowedTargetAddress, isLocalhostName, literalAddressOf } from './target-address';

/** The developer API key's caller: it acts for the app of the path (checked by the auth middleware). */
export interface WebhookCaller {
  appId: number;
}

export interface SettingsInput {
  targetUrl: string;
  throttling?: { maxConcurrentRequests?: number; period?: string };
}

export interface SettingsView {
  targetUrl: string;
  throttling: { maxConcurrentRequests: number };
  createdAt: string;
  updatedAt: string;
}

export interface SubscriptionInput {
  eventType: string;
  propertyName?: string;
  active?: boolean;
  objectTypeId?: string;
}

export interface SubscriptionView {
  id: string;
  eventType: string;
  propertyName?: string;
  objectTypeId?: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

function requireOwnApp(caller: WebhookCaller, appId: number): void {
  if (caller.appId !== appId)
    throw new ForbiddenError(`This key cannot manage application ${appId}.`, {
      context: { applicationId: [String(appId)] },
    });
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https, or (local runtime only) http on a loopback host; never credentials or a fragment in the URL. */
function requireTargetUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError('targetUrl is not an absolute URL.', { context: { targetUrl: [raw.slice(0, 200)] } });
  }
  const isLocalHttp = url.protocol === 'http:' && config.allowsLoopbackHttpWebhooks && loopbackHosts.has(url.hostname);
  if (url.protocol !== 'https:' && !isLocalHttp) {
    const allowed = config.allowsLoopbackHttpWebhooks ? 'https (or http on 127.0.0.1/localhost)' : 'https';
    throw new ValidationError(`targetUrl must use ${allowed}.`, { context: { targetUrl: [raw.slice(0, 200)] } });
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') {
    throw new ValidationError('targetUrl must not carry credentials or a fragment.', {
      context: { targetUrl: [raw.slice(0, 200)] },
    });
  }
  requirePublicHost(url.hostname, raw);
  return url.toString();
}

/**
 * What can be known from the URL alone: an IP literal (in whatever notation: `new URL` has already
 * turned 2130706433 or 0x7f.1 into 127.0.0.1) must be a public address, and `localhost` names are
 * loopback by definition; the local runtime keeps loopback for its receivers. A hostname is not
 * resolved here: it would slow the request, and the name may resolve elsewhere by delivery time
 * (DNS rebinding), so delivery checks every address it is about to connect to (post-to-target.ts).
 */
function requirePublicHost(hostname: string, raw: string): void {
  const literal = literalAddressOf(hostname);
  const isRefused =
    literal !== undefined
      ? !isAllowedTargetAddress(literal, config.allowsLoopbackHttpWebhooks)
      : isLocalhostName(hostname) && !config.allowsLoopbackHttpWebhooks;
  if (isRefused) {
    throw new ValidationError(
      `targetUrl must point at a public host, not ${hostname.slice(0, 100)} (loopback, private, link-local and other reserved addresses are refused).`,
      { context: { targetUrl: [raw.slice(0, 200)] } },
    );
  }
}

function settingsView(settings: WebhookSettings): SettingsView {
  return {
    targetUrl: settings.targetUrl,
    throttling: { maxConcurrentRequests: settings.maxConcurrentRequests },
    createdAt: settings.createdAt,
    updatedAt: settings.updatedAt,
  };
}

function subscriptionView(subscription: WebhookSubscription): SubscriptionView {
  return {
    id: String(subscription.id),
    eventType: subscription.eventType,
    ...(subscription.propertyName === undefined ? {} : { propertyName: subscription.propertyName }),
    ...(subscription.objectTypeId === undefined ? {} : { objectTypeId: subscription.objectTypeId }),
    active: subscription.active,
    createdAt: subscription.createdAt,
    updatedAt: subscription.updatedAt,
  };
}

const settingsNotFound = (appId: number) =>
  new NotFoundError(`No webhook settings for application ${appId}.`, { context: { appId: [String(appId)] } });
const subscriptionNotFound = (raw: string | number) =>
  new NotFoundError(`Subscription ${String(raw)} not found.`, { context: { subscriptionId: [String(raw)] } });

export async function getWebhookSettings(caller: WebhookCaller, appId: number): Promise<SettingsView> {
  requireOwnApp(caller, appId);
  const settings = await findWebhookSettings(appId);
  if (!settings) throw settingsNotFound(appId);
  return settingsView(settings);
}

export async function configureWebhookSettings(
  caller: WebhookCaller,
  appId: number,
  input: SettingsInput,
): Promise<SettingsView> {
  requireOwnApp(caller, appId);
  const targetUrl = requireTargetUrl(input.targetUrl);
  const now = new Date().toISOString();
  const saved = await putWebhookSettings({
    appId,
    targetUrl,
    maxConcurrentRequests: input.throttling?.maxConcurrentRequests ?? maxConcurrentRequestsLimit,
    createdAt: now,
    updatedAt: now,
  });
  return settingsView(saved);
}

/** Subscriptions stay; nothing is delivered until a target is set again. */
export async function removeWebhookSettings(caller: WebhookCaller, appId: number): Promise<void> {
  requireOwnApp(caller, appId);
  if (!(await deleteWebhookSettings(appId))) throw settingsNotFound(appId);
}

export async function listWebhookSubscriptions(
  caller: WebhookCaller,
  appId: number,
): Promise<{ results: SubscriptionView[] }> {
  requireOwnApp(caller, appId);
  const { subscriptions } = await findWebhookConfig(appId);
  return { results: subscriptions.map(subscriptionView) };
}

/**
 * A generic `object.*` subscription's object type, from `objectTypeId` (a type id such as `0-1`, or
 * a name such as `contact`): a type whose records this service stores. It needs that type's read
 * scope (for a note, the contacts' read scope).
 */
function requireGenericObjectType(input: SubscriptionInput): { objectTypeId: string; readScopes: readonly Scope[] } {
  const token = input.objectTypeId;
  // A custom type by its id (`2-<id>`: unique across accounts, so the subscription follows that one type).
  const type = token === undefined ? undefined : (findObjectType(token) ?? objectTypeById(token.trim()));
  if (!type?.isStored) {
    throw new ValidationError(
      token === undefined
        ? `objectTypeId is required for ${input.eventType} subscriptions: the object type whose changes it sends.`
        : `objectTypeId ${token.slice(0, 100)} is not an object type whose records are stored; stored: ${storedObjectTypes.map((stored) => stored.id).join(', ')}, and custom object types (2-<id>).`,
      { context: { objectTypeId: [token?.slice(0, 100) ?? ''] } },
    );
  }
  return { objectTypeId: type.id, readScopes: type.scopes.read };
}

/** The subscription's shape checked; a generic one's object type id; the read scopes, any one of which it needs. */
function requireSubscriptionShape(input: SubscriptionInput): { objectTypeId?: string; readScopes: readonly Scope[] } {
  const generic = isGenericEventType(input.eventType) ? requireGenericObjectType(input) : undefined;
  if (!generic && !isWebhookEventType(input.eventType)) {
    throw new ValidationError(
      `eventType ${input.eventType.slice(0, 100)} is not supported; supported: ${[...webhookEventTypes(), ...genericEventTypes].join(', ')}.`,
      {
        context: { eventType: [input.eventType.slice(0, 100)] },
      },
    );
  }
  const object = eventObjectOf(input.eventType);
  // The type is implied by eventType: an objectTypeId, when given, must be that one.
  if (object !== undefined && input.objectTypeId !== undefined && input.objectTypeId !== eventObjectTypeIds()[object]) {
    throw new ValidationError(
      `objectTypeId ${input.objectTypeId} does not match eventType ${input.eventType} (objectTypeId ${eventObjectTypeIds()[object]}).`,
      { context: { objectTypeId: [input.objectTypeId] } },
    );
  }
  const isPropertyChange = input.eventType.endsWith('.propertyChange');
  if (isPropertyChange && input.propertyName === undefined) {
    throw new ValidationError('propertyName is required for a propertyChange subscription.', {
      context: { propertyName: [] },
    });
  }
  if (!isPropertyChange && input.propertyName !== undefined) {
    throw new ValidationError(`propertyName applies only to propertyChange subscriptions, not ${input.eventType}.`, {
      context: { propertyName: [input.propertyName] },
    });
  }
  if (
    input.propertyName !== undefined &&
    (unsubscribableProperties as readonly string[]).includes(input.propertyName)
  ) {
    throw new ValidationError(`Subscriptions to changes of ${input.propertyName} are not allowed.`, {
      context: { propertyName: [input.propertyName] },
    });
  }
  return generic
    ? { objectTypeId: generic.objectTypeId, readScopes: generic.readScopes }
    : { readScopes: readScopesOfEventType(input.eventType) };
}

/**
 * HubSpot refuses a subscription to an object whose read scope the app does not request (required
 * or optional): its installs could never receive the events. An app created before its requested
 * scopes were kept by app id has no record to check: its subscription is accepted as before, and
 * event generation still sends each account's events only to installs that hold the read scope.
 */
async function requireReadScopeRequested(appId: number, eventType: string, accepted: readonly Scope[]): Promise<void> {
  const requested = await findRequestedScopes(appId);
  const asked = requested ? [...requested.scopes, ...requested.optionalScopes] : [];
  if (!requested || accepted.some((scope) => asked.includes(scope))) return;
  throw new ValidationError(
    `Application ${appId} does not request ${accepted.join(' or ')}, the scope needed to subscribe to ${eventType}; add it to the app's scopes or optional scopes.`,
    { context: { eventType: [eventType] } },
  );
}

export async function createWebhookSubscription(
  caller: WebhookCaller,
  appId: number,
  input: SubscriptionInput,
): Promise<SubscriptionView> {
  requireOwnApp(caller, appId);
  const shape = requireSubscriptionShape(input);
  await requireReadScopeRequested(appId, input.eventType, shape.readScopes);
  const now = new Date().toISOString();
  const subscription: WebhookSubscription = {
    id: await nextSequenceValue('webhookSubscriptionId', 1),
    appId,
    eventType: input.eventType,
    ...(input.propertyName === undefined ? {} : { propertyName: input.propertyName }),
    ...(shape.objectTypeId === undefined ? {} : { objectTypeId: shape.objectTypeId }),
    // HubSpot: "New subscriptions are created in a paused state".
    active: input.active === true,
    createdAt: now,
    updatedAt: now,
  };
  const outcome = await insertWebhookSubscription(subscription, maxSubscriptionsPerApp);
  if (outcome === 'limit-reached') {
    throw new ValidationError(
      `Couldn't create another subscription. You've reached the maximum number allowed per application (${maxSubscriptionsPerApp}).`,
      {
        context: { appId: [String(appId)] },
      },
    );
  }
  if (outcome === 'duplicate') {
    throw new ConflictError(
      `Application ${appId} already has a ${input.eventType} subscription${input.propertyName ? ` for ${input.propertyName}` : ''}.`,
      {
        context: {
          eventType: [input.eventType],
          ...(input.propertyName ? { propertyName: [input.propertyName] } : {}),
        },
      },
    );
  }
  return subscriptionView(subscription);
}

/** Non-numeric ids answer like missing subscriptions. */
function parseSubscriptionId(raw: string): number {
  const id = Number(raw);
  if (!/^[0-9]{1,15}$/.test(raw) || !Number.isSafeInteger(id)) throw subscriptionNotFound(raw.slice(0, 100));
  return id;
}

export async function getWebhookSubscription(
  caller: WebhookCaller,
  appId: number,
  rawId: string,
): Promise<SubscriptionView> {
  requireOwnApp(caller, appId);
  const found = await findWebhookSubscription(appId, parseSubscriptionId(rawId));
  if (!found) throw subscriptionNotFound(rawId);
  return subscriptionView(found);
}

export async function updateWebhookSubscription(
  caller: WebhookCaller,
  appId: number,
  rawId: string,
  input: { active?: boolean },
): Promise<SubscriptionView> {
  requireOwnApp(caller, appId);
  const id = parseSubscriptionId(rawId);
  if (input.active === undefined) {
    const found = await findWebhookSubscription(appId, id);
    if (!found) throw subscriptionNotFound(rawId);
    return subscriptionView(found);
  }
  const updated = await setWebhookSubscriptionActive(appId, id, input.active, new Date().toISOString());
  if (!updated) throw subscriptionNotFound(rawId);
  return subscriptionView(updated);
}

export async function removeWebhookSubscription(caller: WebhookCaller, appId: number, rawId: string): Promise<void> {
  requireOwnApp(caller, appId);
  const found = await findWebhookSubscription(appId, parseSubscriptionId(rawId));
  if (!found || !(await deleteWebhookSubscription(found))) throw subscriptionNotFound(rawId);
}

export interface BatchUpdateResult {
  status: 'COMPLETE';
  results: SubscriptionView[];
  errors: { status: 'error'; category: string; message: string; context: Record<string, string[]> }[];
  startedAt: string;
  completedAt: string;
}

/** Each input is applied on its own; missing ids become errors of a 207 while the others still change. */
export async function batchUpdateWebhookSubscriptions(
  caller: WebhookCaller,
  appId: number,
  inputs: readonly { id: number; active: boolean }[],
): Promise<BatchUpdateResult> {
  requireOwnApp(caller, appId);
  const startedAt = new Date().toISOString();
  const ids = inputs.map((input) => input.id);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined)
    throw new ValidationError(`Subscription ${duplicate} appears more than once.`, {
      context: { id: [String(duplicate)] },
    });
  const results: SubscriptionView[] = [];
  const missing: string[] = [];
  await Promise.all(
    inputs.map(async (input) => {
      const updated = await setWebhookSubscriptionActive(appId, input.id, input.active, startedAt);
      if (updated) results.push(subscriptionView(updated));
      else missing.push(String(input.id));
    }),
  );
  results.sort((a, b) => Number(a.id) - Number(b.id));
  const errors =
    missing.length === 0
      ? []
      : [
          {
            status: 'error' as const,
            category: 'OBJECT_NOT_FOUND',
            message: `Subscriptions not found: ${missing.join(', ')}`,
            context: { ids: missing },
          },
        ];
  return { status: 'COMPLETE', results, errors, startedAt, completedAt: new Date().toISOString() };
}

export interface DeliveryLogPage {
  results: DeliveryAttempt[];
  paging?: { next: { after: string } };
}

/** Recent delivery attempts of the app, newest first (kept 3 days); ours, not HubSpot's. */
export async function listWebhookDeliveries(
  caller: WebhookCaller,
  appId: number,
  query: { limit?: string; after?: string },
): Promise<DeliveryLogPage> {
  requireOwnApp(caller, appId);
  const { attempts, next } = await listDeliveryAttempts(appId, Number(query.limit ?? 50), query.after);
  return { results: attempts, ...(next ? { paging: { next: { after: next } } } : {}) };
}
