import { nowMs } from './clock';
import { batchErrorBody, type BatchError } from './error-body';
import { AppError } from './errors';

export type { BatchError };

export interface BatchResponse<T> {
  status: 'COMPLETE';
  results: T[];
  errors?: BatchError[];
  numErrors?: number;
  requestedAt?: string;
  startedAt: string;
  completedAt: string;
}

export function envelope<T>(startedAt: string, results: T[], errors: BatchError[]): BatchResponse<T> {
  const completedAt = new Date(nowMs()).toISOString();
  return errors.length > 0
    ? { status: 'COMPLETE', results, numErrors: errors.length, errors, startedAt, completedAt }
    : { status: 'COMPLETE', results, startedAt, completedAt };
}

/** A failed input's error; a server-side failure (5xx, or anything untyped) fails the whole request instead. */
export function batchErrorOf(error: unknown, objectWriteTraceId?: string): BatchError {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  return batchErrorBody(error, objectWriteTraceId);
}
