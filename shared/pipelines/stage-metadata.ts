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

/**
 * Whether a stage is a closed won one: its metadata says closed (`isClosed` "true") at probability
 * 1.0, as the default deal pipeline's `closedwon` is. A stage without a probability (tickets') never is.
 */
export function isClosedWonStage(metadata: Readonly<Record<string, string>>): boolean {
  const probability = metadata.probability?.trim();
  return metadata.isClosed === 'true' && probability !== undefined && probability !== '' && Number(probability) === 1;
}
