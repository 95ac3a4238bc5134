import { advanceClock, freezeClock, resetClock } from '../../../shared/base/clock';
import { newRecordId } from '../../../shared/records/record-id';

afterEach(() => {
  resetClock();
});

describe('newRecordId', () => {
  it('makes 16-digit ids below Number.MAX_SAFE_INTEGER', () => {
    const id = newRecordId();

    expect(id).toMatch(/^1\d{15}$/);
    expect(Number(id)).toBeLessThan(Number.MAX_SAFE_INTEGER);
  });

  it('never repeats an id within one process, even within one millisecond', () => {
    const ids = Array.from({ length: 999 }, () => newRecordId());

    expect(new Set(ids).size).toBe(ids.length);
  });

  it('makes each id greater than the last within one process, past a thousand in one millisecond and when the clock steps back', () => {
    freezeClock();
    const ids = Array.from({ length: 3000 }, () => newRecordId());
    advanceClock(-50);
    ids.push(...Array.from({ length: 10 }, () => newRecordId()));

    expect(ids.every((id, index) => index === 0 || id > (ids[index - 1] as string))).toBe(true);
  });

  it('orders ids of later milliseconds after earlier ones as strings', () => {
    const earlier = newRecordId();
    advanceClock(5);

    const later = newRecordId();

    expect(later > earlier).toBe(true);
  });
});
