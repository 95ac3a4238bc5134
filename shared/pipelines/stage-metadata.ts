import { ValidationError } from '../base/errors';

/** A stage's `isClosed` metadata, when given, is "true" or "false"; else 400 VALIDATION_ERROR naming it. */
export function requireIsClosed(metadata: Readonly<Record<string, string>>): void {
  const isClosed = metadata.isClosed;
  if (isClosed !== undefined && isClosed !== 'true' && isClosed !== 'false') {
    throw new ValidationError(`metadata.isClosed must be "true" or "false", not ${JSON.stringify(isClosed)}`, {
      context: { 'metadata.isClosed': [isClosed] },
    });
  }
}
