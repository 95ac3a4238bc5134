import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listTimelineEventTypes } from '../../shared/timeline/event-types';
import { appPath } from './timeline-path.schema';

export const handler = httpHandler('listTimelineEventTypes', { path: appPath }, async ({ path, auth }) =>
  ok(await listTimelineEventTypes(auth, Number(path.appId))),
);
