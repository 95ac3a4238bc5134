import { httpHandler } from '../../shared/http/http-handler';
import { multiStatus, ok } from '../../shared/http/responses';
import { batchRecordListMemberships } from '../../shared/lists/read-memberships';
import { batchReadBody } from './list.schema';

export const handler = httpHandler(
  'batchReadRecordListMemberships',
  { body: batchReadBody },
  async ({ body, auth }) => {
    const answer = await batchRecordListMemberships(auth.hubId, body.inputs);
    return answer.statusCode === 207 ? multiStatus(answer.body) : ok(answer.body);
  },
);
