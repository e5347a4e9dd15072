import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../../shared/api/presets';
import { startProblem } from './start-check';

const resize = (params: Record<string, unknown>) => ({ ':original': { robot: '/upload/handle' }, resized: { robot: '/image/resize', use: ':original', ...params } });

describe('startProblem', () => {
  it('lets every ready-made step set start', () => {
    for (const preset of PRESETS) expect(startProblem({ steps: preset.steps }, null)).toBeNull();
  });

  it('refuses steps the service would refuse, with its code and where', () => {
    const wide = startProblem({ steps: resize({ width: 'wide' }) }, null);
    expect(wide).toMatchObject({ code: 'IMAGE_RESIZE_VALIDATION', details: { step: 'resized', parameter: 'width' } });
    const typo = startProblem({ steps: resize({ heigth: 100 }) }, null);
    expect(typo?.details).toEqual({ step: 'resized', parameter: 'heigth' });
    expect(typo?.message).toMatch(/height/);
  });

  it('knows which robots the embedded service runs; another deployment judges the rest itself', () => {
    const merge = { ':original': { robot: '/upload/handle' }, posted: { robot: '/youtube/store', use: ':original' } };
    expect(startProblem({ steps: merge }, null)).toBeNull();
    const local = startProblem({ steps: merge }, null, true);
    expect(local).toMatchObject({ code: 'ASSEMBLY_STEP_UNKNOWN_ROBOT', details: { step: 'posted', parameter: 'robot' } });
    expect(local?.message).toMatch(/the local service does not support/);
  });

  it("judges a Template's steps with the request's over them, and leaves an unread Template to the service", () => {
    const template = resize({ width: 200 });
    expect(startProblem({ template_id: 't1' }, template)).toBeNull();
    expect(startProblem({ template_id: 't1' }, resize({ resize_strategy: 'squash' }))?.message).toMatch(/\(in the Template\)$/);
    expect(startProblem({ template_id: 't1', steps: { resized: { robot: '/image/resize', use: ':original', width: 'wide' } } }, template)?.details).toEqual({ step: 'resized', parameter: 'width' });
    expect(startProblem({ template_id: 't1' }, null)).toBeNull();
  });
});
