import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { deleteTimelineEventTypeProperty } from '../../shared/timeline/event-type-properties';
import { eventTypePropertyPath } from './timeline-path.schema';

export const handler = httpHandler(
  'deleteTimelineEventTypeProperty',
  { path: eventTypePropertyPath },
  async ({ path, auth }) => {
    await deleteTimelineEventTypeProperty(auth, Number(path.appId), path.eventTypeId, path.propertyId);
    return noContent();
  },
);
