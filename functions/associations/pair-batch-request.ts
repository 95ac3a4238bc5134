import type { AuthContext } from '../../shared/http/auth';
import type { WriteBudget } from '../../shared/associations/batch-associations';
import type { HttpResult } from '../../shared/http/responses';
import { multiStatus, noContent, ok } from '../../shared/http/responses';
import { requireFromTypeScope } from './require-from-scope';

/** What a pair batch route (`/crm/v{3,4}/associations/{fromObjectType}/{toObjectType}/batch/…`) hands its batch. */
export interface PairBatchRequest<I> {
  auth: AuthContext;
  path: { fromObjectType: string; toObjectType: string };
  body: { inputs: readonly I[] };
  deadlineMs: number;
}

/** A batch that writes: the path's first type's write scope before any work, and a budget that ends before the function's timeout. */
export function writePairBatch<I, R>(
  { auth, path, body, deadlineMs }: PairBatchRequest<I>,
  write: (actor: AuthContext, fromToken: string, toToken: string, inputs: readonly I[], budget: WriteBudget) => R,
): R {
  requireFromTypeScope(auth, path.fromObjectType, 'fromObjectType', 'write');
  return write(auth, path.fromObjectType, path.toObjectType, body.inputs, { functionDeadlineMs: deadlineMs });
}

/** A batch that reads: the path's first type's read scope before any work. */
export function readPairBatch<I, R>(
  { auth, path, body }: Omit<PairBatchRequest<I>, 'deadlineMs'>,
  read: (hubId: number, fromToken: string, toToken: string, inputs: readonly I[]) => R,
): R {
  requireFromTypeScope(auth, path.fromObjectType, 'fromObjectType', 'read');
  return read(auth.hubId, path.fromObjectType, path.toObjectType, body.inputs);
}

/** A batch's answer: `success` (200 or 201) when every input went through, else 207 with the errors. */
export const pairBatchAnswer = (result: { numErrors?: number }, success: (body: unknown) => HttpResult): HttpResult =>
  result.numErrors ? multiStatus(result) : success(result);

/**
 * A batch archive's answer once every input went through: 204 on v4; on a dated path (`version`
 * set), 200 with a BatchResponse, as HubSpot's dated specs define it (results empty: an archive
 * returns nothing per input).
 */
export function archiveAnswer(version: string | undefined, startedAt: Date): HttpResult {
  if (version === undefined) return noContent();
  return ok({
    status: 'COMPLETE',
    results: [],
    startedAt: startedAt.toISOString(),
    completedAt: new Date().toISOString(),
  });
}
