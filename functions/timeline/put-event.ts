import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { recordTimelineEvent } from '../../shared/timeline/events';
import { eventBody } from './event.schema';
import { appPath } from './timeline-path.schema';

// The legacy PUT creates like POST: events are immutable, so there is nothing to update.
export const handler = httpHandler(
  'putTimelineEvent',
  { path: appPath, body: eventBody },
  async ({ path, body, auth }) => {
    await recordTimelineEvent(auth, Number(path.appId), body);
    return noContent();
  },
);
