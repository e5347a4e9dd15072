import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateText, formatDateTime, formatTime, parseInstant, utcText } from './date-time';

describe('parseInstant', () => {
  it('reads every spelling the service and core use as the same instant', () => {
    const at = '2026-11-28T19:08:20.000Z';
    for (const spelling of ['2026/11/28 19:08:20 GMT', '2026/11/28 19:08:20+00:00', '2026-11-28 19:08:20', '2026-11-28T19:08:20Z', '2026-11-28T20:08:20+01:00', '2026/11/28 21:08:20+02:00', '2026:11:28 19:08:20Z']) {
      expect(parseInstant(spelling)?.toISOString(), spelling).toBe(at);
    }
    expect(parseInstant(Date.parse(at))?.toISOString()).toBe(at);
    expect(parseInstant(new Date(at))?.toISOString()).toBe(at);
  });

  it('names no instant for what is not a date, a date that does not exist, or a file date without a zone', () => {
    for (const v of ['soon', '', '2026-02-30 10:00:00', '28/11/2026', null, undefined, Number.NaN, new Date('x')]) expect(parseInstant(v)).toBeNull();
    expect(parseInstant('2024:06:01 12:00:00', 'none')).toBeNull();
    expect(parseInstant('2024:06:01 12:00:00Z', 'none')?.toISOString()).toBe('2024-06-01T12:00:00.000Z');
  });

  it('round-trips any instant through each service spelling (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2199-12-31T23:59:59Z'), noInvalidDate: true }), (d) => {
        const whole = new Date(Math.floor(d.getTime() / 1000) * 1000);
        const utc = utcText(whole).replace(' UTC', '');
        expect(parseInstant(`${utc.replace(/-/g, '/')} GMT`)?.getTime()).toBe(whole.getTime());
        expect(parseInstant(utc)?.getTime()).toBe(whole.getTime());
        expect(parseInstant(whole.toISOString())?.getTime()).toBe(whole.getTime());
      }),
    );
  });
});

describe('dateText', () => {
  it('shows local time to the second and the UTC value on hover, in one format everywhere', () => {
    expect(dateText('2026/11/28 19:08:20 GMT', { timeZone: 'Europe/Berlin' })).toEqual({ text: '28 Nov 2026, 20:08:20', title: '2026-11-28 19:08:20 UTC', iso: '2026-11-28T19:08:20.000Z' });
    expect(dateText('2026-11-28T19:08:20Z', { timeZone: 'America/New_York' }).text).toBe('28 Nov 2026, 14:08:20');
    expect(formatDateTime('2026-11-28 19:08:20', 'Asia/Tokyo')).toBe('29 Nov 2026, 04:08:20');
    expect(formatTime('2026-11-28T19:08:20Z', 'UTC')).toBe('19:08:20');
  });

  it('says what it cannot convert instead of inventing a time', () => {
    expect(dateText(null)).toEqual({ text: '—' });
    expect(dateText('soon')).toEqual({ text: 'soon', title: 'Not a date the app can read: as the service sent it' });
    expect(dateText('2024:06:01 12:00:00', { zoneless: 'none' })).toEqual({ text: '2024:06:01 12:00:00', title: 'No time zone recorded: as the file says' });
  });
});
