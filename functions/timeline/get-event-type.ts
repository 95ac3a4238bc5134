import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getTimelineEventType } from '../../shared/timeline/event-types';
import { eventTypePath } from './timeline-path.schema';

export const handler = httpHandler('getTimelineEventType', { path: eventTypePath }, async ({ path, auth }) =>
  ok(await getTimelineEventType(auth, Number(path.appId), path.eventTypeId)),
);
