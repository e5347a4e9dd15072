import { describe, expect, it } from 'vitest';
import { EMPTY_REPLAY_FORM, replayOptionsOf } from './replay-form';

describe('replay form → options', () => {
  it('replays as it ran when nothing is changed', () => {
    expect(replayOptionsOf(EMPTY_REPLAY_FORM)).toEqual({ ok: true, options: {} });
  });
  it('takes new steps as an object, or inside {"steps": …}', () => {
    const steps = { small: { robot: '/image/resize', use: ':original', width: 10 } };
    expect(replayOptionsOf({ ...EMPTY_REPLAY_FORM, mode: 'steps', stepsText: JSON.stringify(steps) })).toEqual({ ok: true, options: { steps } });
    expect(replayOptionsOf({ ...EMPTY_REPLAY_FORM, mode: 'steps', stepsText: JSON.stringify({ steps }) })).toEqual({ ok: true, options: { steps } });
  });
  it('says where the steps JSON is broken, and refuses no steps at all', () => {
    const broken = replayOptionsOf({ ...EMPTY_REPLAY_FORM, mode: 'steps', stepsText: '{\n  "a": }' });
    expect(broken).toMatchObject({ ok: false, field: 'steps', message: expect.stringMatching(/line 2, column/) });
    expect(replayOptionsOf({ ...EMPTY_REPLAY_FORM, mode: 'steps', stepsText: '[]' })).toMatchObject({ ok: false, field: 'steps' });
    expect(replayOptionsOf({ ...EMPTY_REPLAY_FORM, mode: 'steps', stepsText: ' ' })).toMatchObject({ ok: false, field: 'steps' });
  });
  it('runs under another Template, read again when asked, with another notify URL', () => {
    expect(replayOptionsOf({ ...EMPTY_REPLAY_FORM, mode: 'template', templateId: 't1', reparse: true, notifyUrl: ' http://127.0.0.1:9/hook ' })).toEqual({
      ok: true,
      options: { templateId: 't1', reparseTemplate: true, notifyUrl: 'http://127.0.0.1:9/hook' },
    });
    expect(replayOptionsOf({ ...EMPTY_REPLAY_FORM, mode: 'template' })).toMatchObject({ ok: false, field: 'template' });
    expect(replayOptionsOf({ ...EMPTY_REPLAY_FORM, notifyUrl: 'ftp://x' })).toMatchObject({ ok: false, field: 'notifyUrl' });
  });
});
