import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { recordListMemberships } from '../../shared/lists/read-memberships';
import { recordPath } from './list.schema';

export const handler = httpHandler('getRecordListMemberships', { path: recordPath }, async ({ path, auth }) =>
  ok({ results: await recordListMemberships(auth.hubId, path.objectTypeId, path.recordId) }),
);
