import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { createTimelineEventType } from '../../shared/timeline/event-types';
import { createEventTypeBody } from './event-type.schema';
import { appPath } from './timeline-path.schema';

export const handler = httpHandler(
  'createTimelineEventType',
  { path: appPath, body: createEventTypeBody },
  async ({ path, body, auth }) => ok(await createTimelineEventType(auth, Number(path.appId), body)),
);
