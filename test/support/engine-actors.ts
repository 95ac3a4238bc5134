import { AppError } from '../../shared/base/errors';

/** Who a record-engine call acts for: an account and the app and user acting in it. */
export interface EngineActor {
  hubId: number;
  appId: number;
  userId: number;
}

/**
 * A source of fresh accounts for tests that call the record engine directly (test/shared/records):
 * each call answers an account id no earlier call answered, from a random start within
 * [first, first + span), so files given ranges of their own never share an account.
 */
export function engineActors(first: number, span: number): () => EngineActor {
  let hubId = first + Math.floor(Math.random() * span);
  return () => {
    hubId += 1;
    return { hubId, appId: 7, userId: 3 };
  };
}

/** The AppError a call is refused with; a call that succeeds, or fails with anything else, fails the test. */
export async function refusalOf(call: Promise<unknown>): Promise<AppError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}
