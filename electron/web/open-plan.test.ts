import { describe, expect, it } from 'vitest';
import { browserOpenPlan } from './open-plan';

const url = 'http://127.0.0.1:43210/#token=abc';

describe('browserOpenPlan', () => {
  it('opens the browser where a display exists', () => {
    expect(browserOpenPlan('linux', { DISPLAY: ':0' }, url)).toEqual({ open: true });
    expect(browserOpenPlan('linux', { WAYLAND_DISPLAY: 'wayland-0' }, url)).toEqual({ open: true });
    expect(browserOpenPlan('darwin', {}, url)).toEqual({ open: true });
  });

  it('says why no browser opened on a headless Linux machine, and how to reach the app', () => {
    const plan = browserOpenPlan('linux', {}, url);
    expect(plan.open).toBe(false);
    if (plan.open) return;
    expect(plan.message).toContain('No display found');
    expect(plan.message).toContain('ssh -L 43210:127.0.0.1:43210');
  });

  it('names ASSEMBLYLINE_NO_OPEN when it is what stopped the browser', () => {
    const plan = browserOpenPlan('linux', { DISPLAY: ':0', ASSEMBLYLINE_NO_OPEN: '1' }, url);
    expect(plan).toEqual({ open: false, message: expect.stringContaining('ASSEMBLYLINE_NO_OPEN') as string });
  });
});
