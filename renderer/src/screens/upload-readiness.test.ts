import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../../shared/api/presets';
import { checkStepsText } from '../lib/step-checks';
import { CUSTOM_PRESET } from '../state/steps-store';
import { MAX_FILES_PER_RUN, startReadiness } from './UploadView';

describe('startReadiness', () => {
  const okCheck = checkStepsText('{ ":original": { "robot": "/upload/handle" } }');
  const badCheck = checkStepsText('{');

  it('sends the preset steps, or the custom ones when they are valid', () => {
    expect(startReadiness(3, 'thumbs-256', badCheck)).toEqual({ steps: PRESETS[1]?.steps, reason: null });
    expect(startReadiness(3, CUSTOM_PRESET, okCheck)).toEqual({ steps: { ':original': { robot: '/upload/handle' } }, reason: null });
  });

  it('says why Start is disabled', () => {
    expect(startReadiness(0, 'thumbs-256', okCheck).reason).toBe('Add files to start.');
    expect(startReadiness(3, CUSTOM_PRESET, badCheck).reason).toBe('Fix the JSON in the steps editor to start.');
    expect(startReadiness(3, CUSTOM_PRESET, checkStepsText('{}')).reason).toBe('Fix the steps to start.');
    expect(startReadiness(MAX_FILES_PER_RUN + 1, 'thumbs-256', okCheck).reason).toMatch(/at most 100,000 files/);
  });
});
