import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { readRecordLimits } from '../../shared/limits-tracking/record-limits';

export const handler = httpHandler('getRecordLimits', {}, async ({ auth }) => ok(await readRecordLimits(auth.hubId)));
