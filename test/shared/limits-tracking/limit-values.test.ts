import { percentageOf } from '../../../shared/limits-tracking/limit-values';

describe('percentageOf', () => {
  it("answers a percentage to three decimals, as HubSpot's guide shows (94 of 15,000,000: 0.001)", () => {
    expect([percentageOf(94, 15_000_000), percentageOf(1, 15_000_000), percentageOf(3, 10)]).toEqual([0.001, 0, 30]);
  });

  it('answers 0 for a limit of 0', () => {
    expect(percentageOf(0, 0)).toBe(0);
  });
});
