import { accountDetailsOf, utcOffsetOf } from '../../../shared/account-info/account-details';

describe('utcOffsetOf', () => {
  it('follows daylight saving time: US/Eastern is -05:00 in January and -04:00 in July', () => {
    expect(utcOffsetOf('US/Eastern', Date.UTC(2026, 0, 15))).toEqual({
      utcOffset: '-05:00',
      utcOffsetMilliseconds: -18_000_000,
    });
    expect(utcOffsetOf('US/Eastern', Date.UTC(2026, 6, 15))).toEqual({
      utcOffset: '-04:00',
      utcOffsetMilliseconds: -14_400_000,
    });
  });

  it('spells UTC as +00:00 and a half-hour zone with its minutes', () => {
    expect(utcOffsetOf('UTC', 0)).toEqual({ utcOffset: '+00:00', utcOffsetMilliseconds: 0 });
    expect(utcOffsetOf('Asia/Kolkata', 0)).toEqual({ utcOffset: '+05:30', utcOffsetMilliseconds: 19_800_000 });
  });
});

describe('accountDetailsOf', () => {
  it('names a test account DEVELOPER_TEST and any other STANDARD', () => {
    expect(accountDetailsOf({ hubId: 7, isTestAccount: true }).accountType).toBe('DEVELOPER_TEST');
    expect(accountDetailsOf({ hubId: 7 }).accountType).toBe('STANDARD');
  });
});
