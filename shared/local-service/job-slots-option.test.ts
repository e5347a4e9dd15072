import { describe, expect, it } from 'vitest';
import { parseParentMessage } from './child-messages';
import { jobSlotsFromEnv } from './job-slots-option';

describe('ASSEMBLYLINE_JOB_SLOTS', () => {
  it('is read by the host, and a malformed value is refused by name', () => {
    expect(jobSlotsFromEnv({})).toBeUndefined();
    expect(jobSlotsFromEnv({ ASSEMBLYLINE_JOB_SLOTS: ' 4 ' })).toBe(4);
    expect(() => jobSlotsFromEnv({ ASSEMBLYLINE_JOB_SLOTS: '0' })).toThrow(/ASSEMBLYLINE_JOB_SLOTS must be a whole number from 1 to 256; got "0"/);
    expect(() => jobSlotsFromEnv({ ASSEMBLYLINE_JOB_SLOTS: 'many' })).toThrow(/ASSEMBLYLINE_JOB_SLOTS/);
  });

  it('travels in the start message; a bad value there is dropped, not guessed', () => {
    expect(parseParentMessage({ type: 'start', dataDir: '/d', port: 0, jobSlots: 3 })).toEqual({ type: 'start', dataDir: '/d', port: 0, jobSlots: 3 });
    expect(parseParentMessage({ type: 'start', dataDir: '/d', port: 0, jobSlots: 'x' })).toEqual({ type: 'start', dataDir: '/d', port: 0 });
  });
});
