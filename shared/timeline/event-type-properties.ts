import { nextSequenceValue } from '../db/counters';
import {
  deleteProperty,
  findEventType,
  findEventTypeWithProperties,
  findProperty,
  insertProperty,
  maxTimelinePropertyItemBytes,
  replaceProperty,
  timelinePropertyItemBytes,
  type EventTypeProperty,
  type EventTypePropertyOption,
  type TimelinePropertyType,
} from '../db/timeline';
import { NotFoundError, ObjectAlreadyExistsError } from '../base/errors';
import {
  eventTypeNotFound,
  parseNumericId,
  parsePathId,
  problem,
  requireOwnApp,
  requireWellFormedJson,
  validationFailure,
  type AppCaller,
} from './timeline-access';
import { isObjectPrototypeName } from '../base/client-keys';

/**
 * Names an event already uses for its own fields (HubSpot's list); a property with one of these names
 * could never be told apart from them.
 */
export const reservedTimelineNames: readonly string[] = [
  'properties',
  'applicationId',
  'eventTypeId',
  'extraData',
  'id',
  'objectType',
  'objectId',
  'portalId',
  'timestamp',
  'utk',
  'domain',
  'log',
  'lookup',
  'timelineIFrame',
  'eventTemplateId',
  'tokens',
];

/** Property names become top-level keys of events and Handlebars tokens in templates. */
export const propertyNamePattern = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;

export interface PropertyInput {
  id?: number | string;
  eventTypeId?: number | string;
  name?: string;
  label: string;
  propertyType: TimelinePropertyType;
  objectProperty?: string | null;
  options?: readonly { value: string; label: string; propertyId?: unknown }[] | null;
}

/** The wire form: enumeration options carry their property id, and options is [] for the other types. */
export type PropertyView = Omit<EventTypeProperty, 'options'> & {
  options: (EventTypePropertyOption & { propertyId: number })[];
};

export function viewProperty(property: EventTypeProperty): PropertyView {
  return {
    id: property.id,
    eventTypeId: property.eventTypeId,
    name: property.name,
    label: property.label,
    propertyType: property.propertyType,
    ...(property.objectProperty !== undefined ? { objectProperty: property.objectProperty } : {}),
    options: (property.options ?? []).map((option) => ({
      propertyId: property.id,
      label: option.label,
      value: option.value,
    })),
  };
}

function requireValidName(name: string | undefined): string {
  if (name === undefined || !propertyNamePattern.test(name)) {
    throw validationFailure(
      [
        problem(
          'name',
          `name must start with a letter and contain only letters, digits and _ (at most 100 characters); got ${JSON.stringify(name ?? '')}`,
          'INVALID_NAME',
        ),
      ],
      { name: [name ?? ''] },
    );
  }
  if (reservedTimelineNames.includes(name) || isObjectPrototypeName(name)) {
    throw validationFailure(
      [problem('name', `"${name}" is a reserved name and cannot be used for an event type property`, 'RESERVED_NAME')],
      { name: [name] },
    );
  }
  return name;
}

function requireValidOptions(input: PropertyInput): EventTypePropertyOption[] | null {
  const options = input.options ?? [];
  if (input.propertyType !== 'Enumeration') {
    if (options.length > 0)
      throw validationFailure([
        problem(
          'options',
          `options are only allowed for Enumeration properties, not ${input.propertyType}`,
          'INVALID_OPTIONS',
        ),
      ]);
    return null;
  }
  if (options.length === 0)
    throw validationFailure([problem('options', 'an Enumeration property needs at least one option', 'REQUIRED')]);
  const values = options.map((option) => option.value);
  const repeated = values.filter((value, index) => values.indexOf(value) !== index);
  if (repeated.length > 0) {
    throw validationFailure(
      [
        problem(
          'options',
          `option values must be unique; repeated: ${[...new Set(repeated)].join(', ')}`,
          'DUPLICATE_OPTION',
        ),
      ],
      { options: [...new Set(repeated)] },
    );
  }
  return options.map((option) => ({ value: option.value, label: option.label }));
}

/** Ids are at most this long: a property measured with it takes at least what it will take stored. */
const widestId = Number.MAX_SAFE_INTEGER;

/**
 * A property DynamoDB could not store in one item is refused before anything is written (or an id
 * drawn). Only the options can make one that large (every other field is short), so the error names them.
 */
function requireStorableProperty(appId: number, property: EventTypeProperty): void {
  const bytes = timelinePropertyItemBytes(appId, property);
  if (bytes <= maxTimelinePropertyItemBytes) return;
  throw validationFailure(
    [
      problem(
        'options',
        `the property would take ${bytes} bytes; one property may take at most ${maxTimelinePropertyItemBytes}: use fewer or shorter options`,
        'TOO_LARGE',
      ),
    ],
    { options: [String(property.options?.length ?? 0)] },
  );
}

async function requireEventType(appId: number, eventTypeId: number): Promise<void> {
  if (!(await findEventType(appId, eventTypeId))) throw eventTypeNotFound(eventTypeId, appId);
}

function requireMatchingEventTypeId(input: PropertyInput, eventTypeId: number): void {
  if (input.eventTypeId === undefined || parseNumericId(input.eventTypeId) === eventTypeId) return;
  throw validationFailure([
    problem(
      'eventTypeId',
      `eventTypeId ${String(input.eventTypeId)} does not match event type ${eventTypeId} of the path`,
      'INVALID_EVENT_TYPE_ID',
    ),
  ]);
}

/** What every property write checks first: the caller's own app, a body of plain JSON, and the path's event type id (which a body's eventTypeId must match). */
function checkPropertyWrite(caller: AppCaller, appId: number, rawEventTypeId: string, input: PropertyInput): number {
  requireOwnApp(caller, appId);
  requireWellFormedJson(input);
  const eventTypeId = parsePathId(rawEventTypeId, 'eventTypeId');
  requireMatchingEventTypeId(input, eventTypeId);
  return eventTypeId;
}

export async function createTimelineEventTypeProperty(
  caller: AppCaller,
  appId: number,
  rawEventTypeId: string,
  input: PropertyInput,
): Promise<PropertyView> {
  const eventTypeId = checkPropertyWrite(caller, appId, rawEventTypeId, input);
  const name = requireValidName(input.name);
  const options = requireValidOptions(input);
  const fields = {
    eventTypeId,
    name,
    label: input.label,
    propertyType: input.propertyType,
    ...(input.objectProperty ? { objectProperty: input.objectProperty } : {}),
    options,
  };
  requireStorableProperty(appId, { id: widestId, ...fields });
  await requireEventType(appId, eventTypeId);
  const property: EventTypeProperty = { id: await nextSequenceValue('timelinePropertyId', 1), ...fields };
  const outcome = await insertProperty(appId, property);
  if (outcome === 'type-missing') throw eventTypeNotFound(eventTypeId, appId);
  if (outcome === 'name-taken') {
    throw new ObjectAlreadyExistsError(`A property named "${name}" already exists on event type ${eventTypeId}.`, {
      context: { name: [name] },
    });
  }
  return viewProperty(property);
}

export async function listTimelineEventTypeProperties(
  caller: AppCaller,
  appId: number,
  rawEventTypeId: string,
): Promise<PropertyView[]> {
  requireOwnApp(caller, appId);
  const eventTypeId = parsePathId(rawEventTypeId, 'eventTypeId');
  const found = await findEventTypeWithProperties(appId, eventTypeId);
  if (!found) throw eventTypeNotFound(eventTypeId, appId);
  return found.properties.map(viewProperty);
}

function propertyNotFound(propertyId: string, eventTypeId: number): NotFoundError {
  return new NotFoundError(`Property ${propertyId} does not exist on event type ${eventTypeId}.`, {
    context: { propertyId: [propertyId] },
  });
}

/** The body names the property by id; its name cannot change (events already carry it as a key). */
export async function updateTimelineEventTypeProperty(
  caller: AppCaller,
  appId: number,
  rawEventTypeId: string,
  input: PropertyInput,
): Promise<PropertyView> {
  const eventTypeId = checkPropertyWrite(caller, appId, rawEventTypeId, input);
  const propertyId = parseNumericId(input.id);
  if (propertyId === undefined) throw propertyNotFound(String(input.id), eventTypeId);
  const options = requireValidOptions(input);
  await requireEventType(appId, eventTypeId);
  const existing = await findProperty(appId, eventTypeId, propertyId);
  if (!existing) throw propertyNotFound(String(propertyId), eventTypeId);
  if (input.name !== undefined && input.name !== existing.name) {
    throw validationFailure(
      [problem('name', `the name of a property cannot change (it is "${existing.name}")`, 'READ_ONLY_VALUE')],
      { name: [input.name] },
    );
  }
  const updated: EventTypeProperty = {
    id: existing.id,
    eventTypeId,
    name: existing.name,
    label: input.label,
    propertyType: input.propertyType,
    ...(input.objectProperty ? { objectProperty: input.objectProperty } : {}),
    options,
  };
  requireStorableProperty(appId, updated);
  if (!(await replaceProperty(appId, updated))) throw propertyNotFound(String(propertyId), eventTypeId);
  return viewProperty(updated);
}

export async function deleteTimelineEventTypeProperty(
  caller: AppCaller,
  appId: number,
  rawEventTypeId: string,
  rawPropertyId: string,
): Promise<void> {
  requireOwnApp(caller, appId);
  const eventTypeId = parsePathId(rawEventTypeId, 'eventTypeId');
  const propertyId = parsePathId(rawPropertyId, 'propertyId');
  const existing = await findProperty(appId, eventTypeId, propertyId);
  if (!existing || !(await deleteProperty(appId, existing))) throw propertyNotFound(String(propertyId), eventTypeId);
}
