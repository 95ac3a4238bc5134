import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getTimelineEvent } from '../../shared/timeline/events';
import { eventPath } from './timeline-path.schema';

export const handler = httpHandler('getTimelineEvent', { path: eventPath }, async ({ path, auth }) =>
  ok(await getTimelineEvent(auth, Number(path.appId), path.eventTypeId, path.eventId)),
);
