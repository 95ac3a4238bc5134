import { nextSequenceValue } from '../db/counters';
import {
  deleteEventType,
  findEventType,
  insertEventType,
  listEventTypes,
  replaceEventType,
  type EventType,
  type TimelineObjectType,
} from '../db/timeline';
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

export interface EventTypeInput {
  applicationId?: number | string;
  name?: string;
  headerTemplate?: string | null;
  detailTemplate?: string | null;
  objectType?: TimelineObjectType;
}

/** Clients echo applicationId from what they read; a different one means they confused two apps. */
function requireMatchingApplicationId(input: EventTypeInput, appId: number): void {
  if (input.applicationId === undefined || parseNumericId(input.applicationId) === appId) return;
  throw validationFailure(
    [
      problem(
        'applicationId',
        `applicationId ${String(input.applicationId)} does not match application ${appId} of the path`,
        'INVALID_APPLICATION_ID',
      ),
    ],
    { applicationId: [String(input.applicationId)] },
  );
}

function requireName(name: string | undefined): string {
  const trimmed = name?.trim() ?? '';
  if (trimmed === '') throw validationFailure([problem('name', 'name must not be empty', 'REQUIRED')]);
  return trimmed;
}

export async function createTimelineEventType(
  caller: AppCaller,
  appId: number,
  input: EventTypeInput,
): Promise<EventType> {
  requireOwnApp(caller, appId);
  requireWellFormedJson(input);
  requireMatchingApplicationId(input, appId);
  const name = requireName(input.name);
  const type: EventType = {
    id: await nextSequenceValue('timelineEventTypeId', 1001),
    name,
    headerTemplate: input.headerTemplate ?? null,
    detailTemplate: input.detailTemplate ?? null,
    objectType: input.objectType ?? 'CONTACT',
    applicationId: appId,
  };
  await insertEventType(type);
  return type;
}

export async function listTimelineEventTypes(caller: AppCaller, appId: number): Promise<EventType[]> {
  requireOwnApp(caller, appId);
  return listEventTypes(appId);
}

export async function getTimelineEventType(
  caller: AppCaller,
  appId: number,
  rawEventTypeId: string,
): Promise<EventType> {
  requireOwnApp(caller, appId);
  const eventTypeId = parsePathId(rawEventTypeId, 'eventTypeId');
  const type = await findEventType(appId, eventTypeId);
  if (!type) throw eventTypeNotFound(eventTypeId, appId);
  return type;
}

/** Fields present in the body replace the stored ones (null clears a template); absent fields stay. */
export async function updateTimelineEventType(
  caller: AppCaller,
  appId: number,
  rawEventTypeId: string,
  input: EventTypeInput,
): Promise<EventType> {
  requireOwnApp(caller, appId);
  requireWellFormedJson(input);
  const existing = await getTimelineEventType(caller, appId, rawEventTypeId);
  requireMatchingApplicationId(input, appId);
  const updated: EventType = {
    ...existing,
    name: input.name === undefined ? existing.name : requireName(input.name),
    headerTemplate: input.headerTemplate === undefined ? existing.headerTemplate : input.headerTemplate,
    detailTemplate: input.detailTemplate === undefined ? existing.detailTemplate : input.detailTemplate,
    objectType: input.objectType ?? existing.objectType,
  };
  if (!(await replaceEventType(updated))) throw eventTypeNotFound(existing.id, appId);
  return updated;
}

export async function deleteTimelineEventType(caller: AppCaller, appId: number, rawEventTypeId: string): Promise<void> {
  requireOwnApp(caller, appId);
  const eventTypeId = parsePathId(rawEventTypeId, 'eventTypeId');
  if (!(await deleteEventType(appId, eventTypeId))) throw eventTypeNotFound(eventTypeId, appId);
}
