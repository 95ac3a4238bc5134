import { isClosedWonStage } from '../../../shared/pipelines/stage-metadata';

describe('isClosedWonStage', () => {
  it('is true for a closed stage at probability 1.0, however the probability is spelled', () => {
    expect(isClosedWonStage({ isClosed: 'true', probability: '1.0' })).toBe(true);
    expect(isClosedWonStage({ isClosed: 'true', probability: '1' })).toBe(true);
  });

  it('is false for a closed lost stage, an open stage at 1.0 and a stage without a probability (tickets)', () => {
    expect(isClosedWonStage({ isClosed: 'true', probability: '0.0' })).toBe(false);
    expect(isClosedWonStage({ isClosed: 'false', probability: '1.0' })).toBe(false);
    expect(isClosedWonStage({ isClosed: 'true', ticketState: 'CLOSED' })).toBe(false);
    expect(isClosedWonStage({ isClosed: 'true', probability: '' })).toBe(false);
  });
});
