import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updateTimelineEventTypeProperty } from '../../shared/timeline/event-type-properties';
import { updateEventTypePropertyBody } from './event-type-property.schema';
import { eventTypePath } from './timeline-path.schema';

export const handler = httpHandler(
  'updateTimelineEventTypeProperty',
  { path: eventTypePath, body: updateEventTypePropertyBody },
  async ({ path, body, auth }) =>
    ok(await updateTimelineEventTypeProperty(auth, Number(path.appId), path.eventTypeId, body)),
);
