import * as passwords from '../../../shared/oauth/passwords';
import { advanceClock, nowMs, nowSeconds, resetClock } from '../../../shared/base/clock';
import { clearLoginFailures, findLoginAttempts, reserveLoginAttempt } from '../../../shared/db/users';
import { logIn, type LoginOutcome } from '../../../shared/oauth/install-flow';
import { provision, type Installation } from '../../support/harness';

/**
 * Parallel logins: a login that read the lock, ran scrypt, then recorded the failure with two
 * separate updates would let 25 parallel attempts after a lock expired all be checked, and a late
 * failure reset a long lock. Real DynamoDB Local; the password check is spied on (and run for
 * real) only to count how many attempts reached it.
 */
const day = 24 * 3600;
const realVerifyPassword = passwords.verifyPassword;
let installation: Installation;
let checks: jest.SpyInstance;

beforeAll(async () => {
  installation = await provision();
});

beforeEach(() => {
  checks = jest.spyOn(passwords, 'verifyPassword');
});

afterEach(() => {
  jest.restoreAllMocks();
  resetClock();
});

async function expiredLockAfter(email: string, failures: number): Promise<void> {
  // What earlier failures left behind: a long count whose last lock has just run out.
  expect(
    await reserveLoginAttempt(email, 0, { failures, lockedUntilMs: nowMs() - 1 }, nowMs(), nowSeconds() + day),
  ).toBe(true);
}

async function resetAttempts(email: string): Promise<void> {
  // What a successful login leaves: no count, no lock.
  await clearLoginFailures(email);
}

describe('logIn under parallel attempts', () => {
  it('checks only one of 25 parallel wrong attempts after a lock expired, and the 900 s lock holds', async () => {
    await resetAttempts(installation.userEmail);
    await expiredLockAfter(installation.userEmail, 12);
    const startedAt = nowMs();

    const outcomes = await Promise.all(
      Array.from({ length: 25 }, (_, index) => logIn(installation.userEmail, `wrong password ${index}`)),
    );
    const state = await findLoginAttempts(installation.userEmail);

    expect(checks).toHaveBeenCalledTimes(1);
    expect(outcomes.every((outcome) => outcome.outcome === 'locked')).toBe(true);
    expect(state.failures).toBe(13);
    expect(state.lockedUntilMs).toBeGreaterThanOrEqual(startedAt + 900_000);
  });

  it('checks only one attempt when the right password is among 25 parallel ones', async () => {
    await resetAttempts(installation.userEmail);
    await expiredLockAfter(installation.userEmail, 12);
    const startedAt = nowMs();
    const guesses = Array.from({ length: 25 }, (_, index) =>
      index === 12 ? installation.password : `wrong password ${index}`,
    );

    const outcomes: LoginOutcome[] = await Promise.all(guesses.map((guess) => logIn(installation.userEmail, guess)));
    const state = await findLoginAttempts(installation.userEmail);

    expect(checks).toHaveBeenCalledTimes(1);
    const checkedRight = checks.mock.calls[0]?.[0] === installation.password;
    // Either the right password held the one reservation (and its success cleared the count), or a wrong one did and the lock holds.
    expect(outcomes.filter((outcome) => outcome.outcome === 'ok')).toHaveLength(checkedRight ? 1 : 0);
    if (checkedRight) expect(state).toEqual({ failures: 0, lockedUntilMs: 0 });
    else expect(state.lockedUntilMs).toBeGreaterThanOrEqual(startedAt + 900_000);
  });

  it('lets parallel attempts of a user without failures through only up to the free failures', async () => {
    await resetAttempts(installation.userEmail);

    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, index) => logIn(installation.userEmail, `wrong password ${index}`)),
    );

    // Sequentially: failures 1 and 2 are free, failure 3 locks; in parallel never more checks than that.
    expect(checks.mock.calls.length).toBeLessThanOrEqual(3);
    expect(outcomes.filter((outcome) => outcome.outcome === 'bad-credentials').length).toBeLessThanOrEqual(2);
    expect((await findLoginAttempts(installation.userEmail)).lockedUntilMs).toBeGreaterThan(nowMs());
  });
});

describe('a late failure', () => {
  it('never shortens or resets a longer lock set while its password was being checked', async () => {
    await resetAttempts(installation.userEmail);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => undefined;
    const checking = new Promise<void>((resolve) => {
      entered = resolve;
    });
    checks.mockImplementation(async (password: string, stored: string) => {
      if (password === 'slow wrong password') {
        entered();
        await gate;
      }
      return realVerifyPassword(password, stored);
    });
    // Two free failures, so the slow attempt reserves the third (a 2 s lock) and is then held in its check.
    for (const guess of ['wrong 1', 'wrong 2'])
      expect((await logIn(installation.userEmail, guess)).outcome).toBe('bad-credentials');
    const slow = logIn(installation.userEmail, 'slow wrong password');
    await checking;
    // Meanwhile its 2 s lock runs out and later failures push the lock to 900 s.
    advanceClock(3_000);
    const lockedUntilMs = nowMs() + 900_000;
    expect(
      await reserveLoginAttempt(
        installation.userEmail,
        3,
        { failures: 12, lockedUntilMs },
        nowMs(),
        nowSeconds() + day,
      ),
    ).toBe(true);
    const longLock = await findLoginAttempts(installation.userEmail);

    release();
    const outcome = await slow;

    expect(outcome.outcome).toBe('locked');
    expect(await findLoginAttempts(installation.userEmail)).toEqual(longLock);
    expect(longLock).toEqual({ failures: 12, lockedUntilMs });
  });

  it('extends the lock it earned when the check ends after the reservation', async () => {
    await resetAttempts(installation.userEmail);
    await expiredLockAfter(installation.userEmail, 5);
    const before = nowMs();

    const outcome = await logIn(installation.userEmail, 'wrong password');
    const state = await findLoginAttempts(installation.userEmail);

    // Failure 6 earns 16 s, counted from the end of the check.
    expect(outcome).toEqual({ outcome: 'locked', retryAfterSeconds: 16 });
    expect(state.failures).toBe(6);
    expect(state.lockedUntilMs).toBeGreaterThanOrEqual(before + 16_000);
  });
});
