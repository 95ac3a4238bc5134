import { lockSecondsAfter } from '../../../shared/oauth/install-flow';

describe('lockSecondsAfter', () => {
  it('does not lock for the first two failures', () => {
    expect([lockSecondsAfter(1), lockSecondsAfter(2)]).toEqual([0, 0]);
  });

  it('doubles the lock with every further failure up to 15 minutes', () => {
    expect([3, 4, 5, 6, 20].map(lockSecondsAfter)).toEqual([2, 4, 8, 16, 900]);
  });
});
