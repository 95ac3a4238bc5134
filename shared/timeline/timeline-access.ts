import { ForbiddenError, NotFoundError, ValidationError, type ErrorDetail } from '../base/errors';

/** Who manages the app's event types: an access token of the app, or its developer's API key (verified for this app). */
export interface AppCaller {
  appId: number;
}

/** Who records and reads events: from the verified access token only, never from the request. */
export interface TimelineCaller extends AppCaller {
  hubId: number;
}

/** Timeline paths name an application; only a token issued to that same application may use them. */
export function requireOwnApp(caller: AppCaller, appId: number): void {
  if (caller.appId === appId) return;
  throw new ForbiddenError(
    `This access token was issued to application ${caller.appId}; it cannot act for application ${appId}.`,
    {
      context: { applicationId: [String(appId)] },
    },
  );
}

// Ids must stay exact as JSON numbers (company ids have 16 digits).
const digits = /^[0-9]{1,16}$/;

function exactId(raw: string): number | undefined {
  const value = Number(raw);
  return digits.test(raw) && Number.isSafeInteger(value) ? value : undefined;
}

/** Parses a numeric path id; anything else answers like a missing object, as HubSpot does for non-numeric ids. */
export function parsePathId(raw: string, field: string): number {
  const value = exactId(raw);
  if (value === undefined)
    throw new NotFoundError('Object not found.  objectId are usually numeric.', { context: { [field]: [raw] } });
  return value;
}

/** A positive integer given as a JSON number or a string of digits; undefined when it is neither. */
export function parseNumericId(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  const parsed = typeof value === 'string' ? exactId(value) : undefined;
  return parsed !== undefined && parsed > 0 ? parsed : undefined;
}

/** Field names come from the caller (unknown keys), so they are cut short before they are echoed. */
function shortField(field: string): string {
  return field.length > 200 ? `${field.slice(0, 200)}…` : field;
}

export function problem(field: string, message: string, code: string): ErrorDetail {
  const name = shortField(field);
  return { message: message.split(field).join(name), code, in: name, context: { field: [name] } };
}

/** An answer lists at most this many problems, so a body full of bad keys cannot make it huge. */
const maxProblems = 50;

/** One 400 naming every bad field (up to maxProblems); `extraContext` adds the offending values where they help. */
export function validationFailure(
  problems: readonly ErrorDetail[],
  extraContext: Record<string, string[]> = {},
): ValidationError {
  const shown = problems.slice(0, maxProblems);
  const more = problems.length - shown.length;
  const fields = [...new Set(shown.map((detail) => detail.in ?? 'body'))];
  return new ValidationError(
    shown.map((detail) => detail.message).join('; ') + (more > 0 ? `; and ${more} more problems` : ''),
    {
      errors: shown,
      context: { field: fields, ...extraContext },
    },
  );
}

export function eventTypeNotFound(eventTypeId: number, appId: number): NotFoundError {
  return new NotFoundError(`Event type ${eventTypeId} does not exist in application ${appId}.`, {
    context: { eventTypeId: [String(eventTypeId)] },
  });
}

/** Deeper JSON than this is refused: nothing sensible nests so deep, and serializing it would exhaust the stack. */
export const maxJsonDepth = 64;

// With the u flag a proper surrogate pair is one code point, so this matches only lone (broken) halves.
const loneSurrogate = /\p{Surrogate}/u;

function malformedAt(
  value: unknown,
  field: string,
  depth: number,
): { field: string; reason: 'text' | 'depth' } | undefined {
  if (typeof value === 'string') return loneSurrogate.test(value) ? { field, reason: 'text' } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= maxJsonDepth) return { field, reason: 'depth' };
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [`[${index}]`, item])
    : Object.entries(value).map(([key, item]) => [`.${key}`, item]);
  for (const [step, item] of entries) {
    const path = field === '' ? step.replace(/^\./, '') : `${field}${step}`;
    if (loneSurrogate.test(step)) return { field: path, reason: 'text' };
    const found = malformedAt(item, path, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Refuses text that is not valid Unicode (a lone surrogate, which JSON can carry but DynamoDB would
 * silently replace, so two different ids could collide) and JSON nested deeper than maxJsonDepth.
 */
export function requireWellFormedJson(value: unknown, field = ''): void {
  const found = malformedAt(value, field, 0);
  if (!found) return;
  const name = found.field === '' ? 'body' : found.field;
  throw validationFailure([
    found.reason === 'text'
      ? problem(name, `${name} contains text that is not valid Unicode (a lone surrogate)`, 'INVALID_TEXT')
      : problem(name, `${name} is nested deeper than ${maxJsonDepth} levels`, 'TOO_DEEP'),
  ]);
}
