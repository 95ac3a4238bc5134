import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updateTimelineEventType } from '../../shared/timeline/event-types';
import { updateEventTypeBody } from './event-type.schema';
import { eventTypePath } from './timeline-path.schema';

export const handler = httpHandler(
  'updateTimelineEventType',
  { path: eventTypePath, body: updateEventTypeBody },
  async ({ path, body, auth }) => ok(await updateTimelineEventType(auth, Number(path.appId), path.eventTypeId, body)),
);
