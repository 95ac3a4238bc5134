import { nowMs } from './clock';
import { AppError } from './http/errors';

/** StandardError (reference section 2.4): every field present, even when empty. */
export interface BatchError {
  status: 'error';
  category: string;
  subCategory?: string;
  message: string;
  context: Record<string, string[]>;
  errors: unknown[];
  links: Record<string, string>;
  objectWriteTraceId?: string;
}

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

export function batchErrorOf(error: unknown, objectWriteTraceId?: string): BatchError {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  return {
    status: 'error', category: error.category, ...(error.subCategory ? { subCategory: error.subCategory } : {}), message: error.message, context: error.context ?? {}, errors: error.errors ?? [], links: error.links ?? {},
    ...(objectWriteTraceId ? { objectWriteTraceId } : {}),
  };
}
