import { nowMs } from '../base/clock';
import { companyKeys } from '../companies/company-keys';
import {
  eventItem,
  findActiveRecordIds,
  findEvent,
  findEventType,
  findEventTypeWithProperties,
  insertEvents,
  maxEventsPerWrite,
  type EventType,
  type EventTypeProperty,
  type TimelineEvent,
} from '../db/timeline';
import { ConflictError, NotFoundError, PayloadTooLargeError, type ErrorDetail } from '../base/errors';
import { isDecimalNumber, quoteValue } from '../properties/validate-property-values';
import { reservedTimelineNames } from './event-type-properties';
import {
  eventTypeNotFound,
  parseNumericId,
  parsePathId,
  problem,
  requireOwnApp,
  requireWellFormedJson,
  validationFailure,
  type TimelineCaller,
} from './timeline-access';
import { clientKeyedRecord } from '../base/client-keys';

/** Keys an event body may carry besides the custom fields of its type. */
const eventKeys = new Set(['id', 'eventTypeId', 'objectId', 'timestamp', 'extraData', 'timelineIFrame']);

export const maxEventIdLength = 256;
/** One DynamoDB item holds at most 400 KB; the stored event must fit with room to spare. */
export const maxEventBytes = 350_000;
/** One transaction carries at most 4 MB. */
export const maxBatchBytes = 3_500_000;

interface LoadedType {
  type: EventType;
  properties: Map<string, EventTypeProperty>;
}

type Json = Record<string, unknown>;

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const epochMsPattern = /^-?\d{1,15}$/;

/** Why a custom field's value does not fit its property, or undefined when it does. */
export function valueProblem(
  property: EventTypeProperty,
  value: string,
): { message: string; code: string } | undefined {
  switch (property.propertyType) {
    case 'String':
      return undefined;
    case 'Numeric':
      return isDecimalNumber(value)
        ? undefined
        : { message: `must be a number (as a string), got ${quoteValue(value)}`, code: 'INVALID_NUMBER' };
    case 'Date':
      return epochMsPattern.test(value)
        ? undefined
        : {
            message: `must be a date in epoch milliseconds (as a string), got ${quoteValue(value)}`,
            code: 'INVALID_DATE',
          };
    case 'Enumeration': {
      const options = property.options ?? [];
      if (options.some((option) => option.value === value)) return undefined;
      const listed = options
        .slice(0, 20)
        .map((option) => quoteValue(option.value))
        .join(', ');
      return {
        message: `must be one of ${listed}${options.length > 20 ? ', …' : ''}, got ${quoteValue(value)}`,
        code: 'INVALID_OPTION',
      };
    }
  }
}

export function parseTimestamp(value: unknown): number | undefined {
  if (value === undefined || value === null) return nowMs();
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

function parseEventId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && value.length >= 1 && value.length <= maxEventIdLength) return value;
  return undefined;
}

const iframeTextKeys = ['linkLabel', 'iframeLabel', 'iframeUri'] as const;
const iframeSizeKeys = ['width', 'height'] as const;

export function iframeProblems(value: Json, field: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const key of iframeTextKeys) {
    const text = value[key];
    if (typeof text !== 'string' || text.length === 0)
      problems.push(problem(`${field}.${key}`, `${field}.${key} must be a non-empty string`, 'REQUIRED'));
  }
  const uri = value.iframeUri;
  if (typeof uri === 'string' && uri.length > 0 && !/^https?:\/\/[^\s]+$/i.test(uri)) {
    problems.push(problem(`${field}.iframeUri`, `${field}.iframeUri must be an http(s) URL`, 'INVALID_URL'));
  }
  for (const key of iframeSizeKeys) {
    const size = value[key];
    if (!(typeof size === 'number' && Number.isSafeInteger(size) && size > 0)) {
      problems.push(
        problem(`${field}.${key}`, `${field}.${key} must be a positive integer (pixels)`, 'INVALID_INTEGER'),
      );
    }
  }
  for (const key of Object.keys(value)) {
    if (!(iframeTextKeys as readonly string[]).includes(key) && !(iframeSizeKeys as readonly string[]).includes(key)) {
      problems.push(problem(`${field}.${key}`, `${field}.${key} is not an allowed field`, 'UNKNOWN_FIELD'));
    }
  }
  return problems;
}

/**
 * Checks one event against its type and builds what is stored. `prefix` places the field names
 * (for a batch: `eventWrappers[3].`), so every problem names exactly the field at fault.
 */
function readEvent(
  raw: Json,
  loaded: LoadedType,
  caller: TimelineCaller,
  prefix: string,
): { event?: TimelineEvent; problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  const field = (name: string) => `${prefix}${name}`;
  const id = parseEventId(raw.id);
  if (id === undefined)
    problems.push(
      problem(
        field('id'),
        `${field('id')} is required: a string of 1 to ${maxEventIdLength} characters chosen by the caller`,
        'REQUIRED',
      ),
    );
  const objectId = parseNumericId(raw.objectId);
  if (objectId === undefined)
    problems.push(
      problem(
        field('objectId'),
        `${field('objectId')} is required: the id of the ${loaded.type.objectType.toLowerCase()} (a positive integer)`,
        'INVALID_OBJECT_ID',
      ),
    );
  const timestamp = parseTimestamp(raw.timestamp);
  if (timestamp === undefined)
    problems.push(
      problem(
        field('timestamp'),
        `${field('timestamp')} must be epoch milliseconds (a non-negative integer or a string of digits)`,
        'INVALID_DATE',
      ),
    );
  const extraData = raw.extraData ?? undefined;
  if (extraData !== undefined && !isPlainObject(extraData))
    problems.push(problem(field('extraData'), `${field('extraData')} must be a JSON object`, 'INVALID_OBJECT'));
  const iframe = raw.timelineIFrame ?? undefined;
  if (iframe !== undefined) {
    if (isPlainObject(iframe)) problems.push(...iframeProblems(iframe, field('timelineIFrame')));
    else
      problems.push(
        problem(field('timelineIFrame'), `${field('timelineIFrame')} must be a JSON object`, 'INVALID_OBJECT'),
      );
  }

  const fields = clientKeyedRecord<string>();
  for (const [name, value] of Object.entries(raw)) {
    if (eventKeys.has(name)) continue;
    if (reservedTimelineNames.includes(name)) {
      problems.push(
        problem(field(name), `${field(name)} is a reserved name and cannot be sent with an event`, 'RESERVED_NAME'),
      );
      continue;
    }
    const property = loaded.properties.get(name);
    if (!property) {
      problems.push(
        problem(
          field(name),
          `${field(name)} is not a property of event type ${loaded.type.id}`,
          'PROPERTY_DOESNT_EXIST',
        ),
      );
      continue;
    }
    // HubSpot documents string values; a bare number is what the client meant, so it is kept as its string.
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number' && Number.isFinite(value)
          ? String(value)
          : undefined;
    if (text === undefined) {
      problems.push(problem(field(name), `${field(name)} must be a string`, 'INVALID_TYPE'));
      continue;
    }
    const mismatch = valueProblem(property, text);
    if (mismatch)
      problems.push(
        problem(field(name), `${field(name)} (${property.propertyType}) ${mismatch.message}`, mismatch.code),
      );
    else fields[name] = text;
  }
  if (problems.length > 0 || id === undefined || objectId === undefined || timestamp === undefined) return { problems };

  const event: TimelineEvent = {
    id,
    applicationId: loaded.type.applicationId,
    portalId: caller.hubId,
    eventTypeId: loaded.type.id,
    objectType: loaded.type.objectType,
    objectId,
    timestamp,
    fields,
    ...(isPlainObject(extraData) ? { extraDataJson: JSON.stringify(extraData) } : {}),
    ...(isPlainObject(iframe) ? { timelineIFrameJson: JSON.stringify(iframe) } : {}),
  };
  const bytes = Buffer.byteLength(JSON.stringify(eventItem(event)));
  if (bytes > maxEventBytes) {
    return {
      problems: [
        problem(
          prefix === '' ? 'body' : prefix.slice(0, -1),
          `the event takes ${bytes} bytes; at most ${maxEventBytes} are allowed`,
          'TOO_LARGE',
        ),
      ],
    };
  }
  return { event, problems };
}

async function loadType(appId: number, eventTypeId: number): Promise<LoadedType | undefined> {
  const found = await findEventTypeWithProperties(appId, eventTypeId);
  return (
    found && { type: found.type, properties: new Map(found.properties.map((property) => [property.name, property])) }
  );
}

/** COMPANY events must point at a live company of the caller's hub. */
async function companyProblems(
  caller: TimelineCaller,
  events: readonly { event: TimelineEvent; prefix: string }[],
): Promise<ErrorDetail[]> {
  const companyEvents = events.filter(({ event }) => event.objectType === 'COMPANY');
  if (companyEvents.length === 0) return [];
  const active = await findActiveRecordIds(
    companyKeys,
    caller.hubId,
    companyEvents.map(({ event }) => String(event.objectId)),
  );
  return companyEvents
    .filter(({ event }) => !active.has(String(event.objectId)))
    .map(({ event, prefix }) =>
      problem(
        `${prefix}objectId`,
        `Company ${event.objectId} does not exist in account ${caller.hubId}`,
        'OBJECT_NOT_FOUND',
      ),
    );
}

/**
 * Who records events: the timeline caller, and whether its token is a test account's
 * (shared/http/auth.ts AuthContext.isTestAccount), whose events are listed for the account's purge.
 */
export interface EventRecorder extends TimelineCaller {
  isTestAccount?: boolean;
}

/** `prefixes[i]` places event i's fields in the answer ('' for a single event, `eventWrappers[i].` in a batch). */
async function write(
  caller: EventRecorder,
  events: readonly TimelineEvent[],
  prefixes: readonly string[],
): Promise<void> {
  const result = await insertEvents(events, { listed: caller.isTestAccount === true });
  if (result.outcome === 'duplicate') {
    const duplicates = result.indexes.map((index) => ({ event: events[index], prefix: prefixes[index] ?? '' }));
    const problems = duplicates.map(({ event, prefix }) =>
      problem(
        `${prefix}id`,
        `An event with id "${event?.id}" already exists for event type ${event?.eventTypeId} in this account; events cannot be changed`,
        'DUPLICATE_EVENT_ID',
      ),
    );
    throw validationFailure(problems, { id: duplicates.map(({ event }) => String(event?.id)) });
  }
  if (result.outcome === 'conflict') {
    throw new ConflictError(
      'Another request wrote one of these events at the same time; nothing was written. Retry the request.',
    );
  }
}

/** Records one event (POST, or the legacy PUT): a new id only, since events became immutable in December 2024. */
export async function recordTimelineEvent(caller: EventRecorder, appId: number, raw: Json): Promise<void> {
  requireOwnApp(caller, appId);
  requireWellFormedJson(raw);
  const eventTypeId = parseNumericId(raw.eventTypeId);
  if (eventTypeId === undefined)
    throw validationFailure([
      problem('eventTypeId', 'eventTypeId is required: the id of an event type of this application', 'REQUIRED'),
    ]);
  const loaded = await loadType(appId, eventTypeId);
  if (!loaded) throw eventTypeNotFound(eventTypeId, appId);
  const { event, problems } = readEvent(raw, loaded, caller, '');
  if (!event) throw validationFailure(problems);
  const missingCompanies = await companyProblems(caller, [{ event, prefix: '' }]);
  if (missingCompanies.length > 0) throw validationFailure(missingCompanies, { objectId: [String(event.objectId)] });
  await write(caller, [event], ['']);
}

/**
 * Records a batch all or nothing: every event is checked first (fields, types, companies, ids repeated
 * within the batch) and any problem rejects the whole batch with a 400 listing every problem; then all
 * events go into one conditional transaction, so an id that already exists also rejects the whole batch
 * and nothing of it is stored.
 */
export async function recordTimelineEvents(
  caller: EventRecorder,
  appId: number,
  wrappers: readonly unknown[],
): Promise<void> {
  requireOwnApp(caller, appId);
  requireWellFormedJson(wrappers, 'eventWrappers');
  if (wrappers.length > maxEventsPerWrite) {
    throw validationFailure([
      problem('eventWrappers', `at most ${maxEventsPerWrite} events per batch; got ${wrappers.length}`, 'TOO_MANY'),
    ]);
  }
  const typeIds = [
    ...new Set(
      wrappers
        .map((raw) => (isPlainObject(raw) ? parseNumericId(raw.eventTypeId) : undefined))
        .filter((id) => id !== undefined),
    ),
  ];
  const types = new Map(await Promise.all(typeIds.map(async (id) => [id, await loadType(appId, id)] as const)));

  const problems: ErrorDetail[] = [];
  const accepted: { event: TimelineEvent; prefix: string }[] = [];
  const seen = new Set<string>();
  wrappers.forEach((raw, index) => {
    const prefix = `eventWrappers[${index}].`;
    if (!isPlainObject(raw)) {
      problems.push(
        problem(`eventWrappers[${index}]`, `eventWrappers[${index}] must be a JSON object`, 'INVALID_OBJECT'),
      );
      return;
    }
    const eventTypeId = parseNumericId(raw.eventTypeId);
    const loaded = eventTypeId === undefined ? undefined : types.get(eventTypeId);
    if (!loaded) {
      problems.push(
        eventTypeId === undefined
          ? problem(
              `${prefix}eventTypeId`,
              `${prefix}eventTypeId is required: the id of an event type of this application`,
              'REQUIRED',
            )
          : problem(
              `${prefix}eventTypeId`,
              `Event type ${eventTypeId} does not exist in application ${appId}`,
              'OBJECT_NOT_FOUND',
            ),
      );
      return;
    }
    const result = readEvent(raw, loaded, caller, prefix);
    problems.push(...result.problems);
    if (!result.event) return;
    const identity = `${result.event.eventTypeId}#${result.event.id}`;
    if (seen.has(identity)) {
      problems.push(
        problem(
          `${prefix}id`,
          `${prefix}id "${result.event.id}" appears more than once in this batch`,
          'DUPLICATE_EVENT_ID',
        ),
      );
      return;
    }
    seen.add(identity);
    accepted.push({ event: result.event, prefix });
  });
  problems.push(...(await companyProblems(caller, accepted)));
  if (problems.length > 0) throw validationFailure(problems);

  const totalBytes = accepted.reduce((sum, { event }) => sum + Buffer.byteLength(JSON.stringify(eventItem(event))), 0);
  if (totalBytes > maxBatchBytes) {
    throw new PayloadTooLargeError(`the batch takes ${totalBytes} bytes; at most ${maxBatchBytes} are allowed`, {
      context: { field: ['eventWrappers'] },
    });
  }
  await write(
    caller,
    accepted.map(({ event }) => event),
    accepted.map(({ prefix }) => prefix),
  );
}

export type TimelineEventView = Record<string, unknown>;

function parseStoredJson(text: string | undefined): unknown {
  return text === undefined ? undefined : JSON.parse(text);
}

/** Custom fields are top-level string keys next to the event's own fields, as HubSpot lays them out. */
export function viewEvent(event: TimelineEvent): TimelineEventView {
  const iframe = parseStoredJson(event.timelineIFrameJson);
  return {
    id: event.id,
    applicationId: event.applicationId,
    portalId: event.portalId,
    eventTypeId: event.eventTypeId,
    objectType: event.objectType,
    objectId: event.objectId,
    timestamp: event.timestamp,
    extraData: parseStoredJson(event.extraDataJson) ?? null,
    ...event.fields,
    ...(iframe !== undefined ? { timelineIFrame: iframe } : {}),
  };
}

/** Another hub's event answers exactly like a missing one. */
export async function getTimelineEvent(
  caller: TimelineCaller,
  appId: number,
  rawEventTypeId: string,
  eventId: string,
): Promise<TimelineEventView> {
  requireOwnApp(caller, appId);
  const eventTypeId = parsePathId(rawEventTypeId, 'eventTypeId');
  const [type, event] = await Promise.all([
    findEventType(appId, eventTypeId),
    eventId.length <= maxEventIdLength ? findEvent(caller.hubId, eventTypeId, eventId) : undefined,
  ]);
  if (!type) throw eventTypeNotFound(eventTypeId, appId);
  if (!event || event.portalId !== caller.hubId || event.applicationId !== appId) {
    throw new NotFoundError(`Event "${eventId}" of event type ${eventTypeId} does not exist.`, {
      context: { eventId: [eventId] },
    });
  }
  return viewEvent(event);
}
