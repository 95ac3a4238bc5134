import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ErrorResponse } from '../base/error-body';
import type { HttpResult } from './responses';

export const jsonContentType = 'application/json;charset=utf-8';

/** A handler's result (or an error response) as the API Gateway payload 2.0 result. */
export function serialize(result: HttpResult, correlationId: string): APIGatewayProxyStructuredResultV2 {
  // nosniff on every answer, errors included: a browser must never read a JSON body (which may
  // echo client text) as HTML or script.
  const headers: Record<string, string> = {
    'x-hubspot-correlation-id': correlationId,
    'x-content-type-options': 'nosniff',
  };
  let body: string | undefined;
  // A page's own headers come with it (responses.ts htmlPage).
  if (result.html !== undefined) body = result.html;
  else if (result.body !== undefined) {
    headers['content-type'] = jsonContentType;
    body = JSON.stringify(result.body);
  }
  Object.assign(headers, result.headers);
  return {
    statusCode: result.statusCode,
    headers,
    body,
    ...(result.cookies?.length ? { cookies: result.cookies } : {}),
  };
}

/**
 * An error body from shared/base/error-body.ts, sent as JSON with the same headers as every answer.
 * Every 503 asks to be retried: `Retry-After: 1` unless the error names its own.
 */
export function serializeError(mapped: ErrorResponse, correlationId: string): APIGatewayProxyStructuredResultV2 {
  const headers = mapped.statusCode === 503 ? { 'retry-after': '1', ...mapped.headers } : mapped.headers;
  return serialize({ statusCode: mapped.statusCode, body: mapped.body, headers }, correlationId);
}
