import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { batchRecordListMemberships } from '../../shared/lists/read-memberships';
import { batchReadBody } from './list.schema';

export const handler = httpHandler('batchReadRecordListMemberships', { body: batchReadBody }, async ({ body, auth }) =>
  ok(await batchRecordListMemberships(auth.hubId, body.inputs)),
);
