/**
 * Refuses to run tests against anything but a DynamoDB on this machine. Jest's global setup calls it
 * once for the run (every test worker inherits that environment); harness.ts calls it again on import.
 */
export function assertLocalDynamoDb(): void {
  const endpoint = process.env.DYNAMODB_ENDPOINT ?? '';
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+$/.test(endpoint)) {
    throw new Error(`tests run only against a local DynamoDB; DYNAMODB_ENDPOINT is "${endpoint}"`);
  }
}
