import { AppError } from '../../../shared/base/errors';
import { WriteClock } from '../../../shared/sandbox/fixtures';

/**
 * The fixtures' write clock (shared/sandbox/fixtures.ts): the time left must hold removing what was
 * written, budgeted at 3 times the records' writing time plus 1 s, 0.6 times the pairs', 1.5 times
 * the lists' and 2 times the members' writing time, and the 1 s answer. Time here is performance.now() held by the test.
 */
let nowMs = 0;
beforeEach(() => {
  nowMs = 100_000;
  jest.spyOn(performance, 'now').mockImplementation(() => nowMs);
});
afterEach(() => {
  jest.restoreAllMocks();
});

describe('the fixtures write clock', () => {
  it('is out of time once removing the records written so far (3 times their writing time, plus 1 s) and the answer pass the deadline', () => {
    // 2 s of writing records: removal 7 s, answer 1 s; 10 s in all from the start.
    const clock = new WriteClock(nowMs + 10_000);
    nowMs += 1_999;
    const before = clock.isOutOfTime();
    nowMs += 2;
    const after = clock.isOutOfTime();

    expect({ before, after }).toEqual({ before: false, after: true });
  });

  it('budgets the pairs phase at 0.6 times its writing time', () => {
    // 1 s of records (removal 1 s + 3 s), then 5 s of pairs (3 s): 1 + 4 + 5 + 3 + 1 (answer) = 14 s.
    const clock = new WriteClock(nowMs + 14_000);
    nowMs += 1_000;
    clock.requireRoomForStep('pairs');
    nowMs += 4_990;
    const before = clock.isOutOfTime();
    nowMs += 20;
    const after = clock.isOutOfTime();

    expect({ before, after }).toEqual({ before: false, after: true });
  });

  it('budgets the lists phase at 1.5 times its writing time, the records after it at 3 and the members at 2', () => {
    // 1 s of lists (1.5 s), 1 s of records (3 s), 2 s of members (4 s): 4 + 1 + 1.5 + 3 + 4 + 1 (answer) = 14.5 s.
    const clock = new WriteClock(nowMs + 14_500, 'lists');
    nowMs += 1_000;
    clock.requireRoomForStep('records');
    nowMs += 1_000;
    clock.requireRoomForStep('members');
    nowMs += 1_990;
    const before = clock.isOutOfTime();
    nowMs += 20;
    const after = clock.isOutOfTime();

    expect({ before, after }).toEqual({ before: false, after: true });
  });

  it('refuses a step with the 503 and Retry-After when the longest step so far would not fit with its removal', async () => {
    const clock = new WriteClock(nowMs + 10_000);
    // One batch of 1 s: another would end at 2 s, with 7 s of removal and 1 s of answer: 10 s, in time.
    await clock.step('records', async () => {
      nowMs += 1_000;
    });
    await clock.step('records', async () => {
      nowMs += 1_000;
    });
    const refused = await clock
      .step('records', async () => {
        nowMs += 1_000;
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );

    expect(refused).toBeInstanceOf(AppError);
    expect({
      status: (refused as AppError).status,
      retryAfter: (refused as AppError).headers?.['retry-after'],
    }).toEqual({
      status: 503,
      retryAfter: '1',
    });
  });
});
