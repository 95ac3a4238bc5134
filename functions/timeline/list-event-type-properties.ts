import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listTimelineEventTypeProperties } from '../../shared/timeline/event-type-properties';
import { eventTypePath } from './timeline-path.schema';

export const handler = httpHandler('listTimelineEventTypeProperties', { path: eventTypePath }, async ({ path, auth }) =>
  ok(await listTimelineEventTypeProperties(auth, Number(path.appId), path.eventTypeId)),
);
