import { isLifecycleStageAccepted } from '../../../shared/records/lifecycle-stage';

describe('isLifecycleStageAccepted', () => {
  it('accepts a later stage', () => {
    expect(isLifecycleStageAccepted('lead', 'opportunity')).toBe(true);
  });

  it('ignores an earlier stage', () => {
    expect(isLifecycleStageAccepted('customer', 'lead')).toBe(false);
  });

  it('ignores the same stage', () => {
    expect(isLifecycleStageAccepted('customer', 'customer')).toBe(false);
  });

  it('accepts any stage when none is set', () => {
    expect(isLifecycleStageAccepted(undefined, 'subscriber')).toBe(true);
  });

  it('accepts clearing', () => {
    expect(isLifecycleStageAccepted('evangelist', '')).toBe(true);
  });
});
