import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { recordTimelineEvents } from '../../shared/timeline/events';
import { eventBatchBody } from './event.schema';
import { appPath } from './timeline-path.schema';

// The legacy PUT creates like POST: events are immutable, so there is nothing to update.
export const handler = httpHandler(
  'putTimelineEventBatch',
  { path: appPath, body: eventBatchBody },
  async ({ path, body, auth }) => {
    await recordTimelineEvents(auth, Number(path.appId), body.eventWrappers);
    return noContent();
  },
);
