import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { deleteTimelineEventType } from '../../shared/timeline/event-types';
import { eventTypePath } from './timeline-path.schema';

export const handler = httpHandler('deleteTimelineEventType', { path: eventTypePath }, async ({ path, auth }) => {
  await deleteTimelineEventType(auth, Number(path.appId), path.eventTypeId);
  return noContent();
});
