import { advanceClock, resetClock } from '../../../shared/base/clock';
import { newCompanyId } from '../../../shared/records/record-id';

afterEach(() => {
  resetClock();
});

describe('newCompanyId', () => {
  it('makes 16-digit ids below Number.MAX_SAFE_INTEGER', () => {
    const id = newCompanyId();

    expect(id).toMatch(/^1\d{15}$/);
    expect(Number(id)).toBeLessThan(Number.MAX_SAFE_INTEGER);
  });

  it('never repeats an id within one process, even within one millisecond', () => {
    const ids = Array.from({ length: 999 }, () => newCompanyId());

    expect(new Set(ids).size).toBe(ids.length);
  });

  it('orders ids of later milliseconds after earlier ones as strings', () => {
    const earlier = newCompanyId();
    advanceClock(5);

    const later = newCompanyId();

    expect(later > earlier).toBe(true);
  });
});
