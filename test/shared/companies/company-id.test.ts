import { advanceClock, resetClock } from '../../../shared/base/clock';
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

  it('orders ids of later milliseconds after earlier ones as strings', () => {
    const earlier = newRecordId();
    advanceClock(5);

    const later = newRecordId();

    expect(later > earlier).toBe(true);
  });
});
