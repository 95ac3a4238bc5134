import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { createTimelineEventTypeProperty } from '../../shared/timeline/event-type-properties';
import { createEventTypePropertyBody } from './event-type-property.schema';
import { eventTypePath } from './timeline-path.schema';

export const handler = httpHandler(
  'createTimelineEventTypeProperty',
  { path: eventTypePath, body: createEventTypePropertyBody },
  async ({ path, body, auth }) =>
    ok(await createTimelineEventTypeProperty(auth, Number(path.appId), path.eventTypeId, body)),
);
