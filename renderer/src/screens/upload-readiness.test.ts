import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../../shared/api/presets';
import { checkStepsText } from '../lib/step-checks';
import { CUSTOM_PRESET, TEMPLATE_PRESET } from '../state/steps-store';
import { MAX_FILES_PER_RUN, startReadiness } from './UploadView';

describe('startReadiness', () => {
  const okCheck = checkStepsText('{ ":original": { "robot": "/upload/handle" } }');
  const badCheck = checkStepsText('{');

  it('sends the preset steps, or the custom ones when they are valid', () => {
    expect(startReadiness(3, 'thumbs-256', badCheck)).toEqual({ steps: PRESETS[1]?.steps, instructions: { steps: PRESETS[1]?.steps }, reason: null });
    const original = { ':original': { robot: '/upload/handle' } };
    expect(startReadiness(3, CUSTOM_PRESET, okCheck)).toEqual({ steps: original, instructions: { steps: original }, reason: null });
  });

  it('sends a chosen Template with the fields that have values', () => {
    const ready = startReadiness(2, TEMPLATE_PRESET, badCheck, { id: 'builtin/image-resize@latest', fields: { size: '512', empty: '' } });
    expect(ready).toMatchObject({ instructions: { template_id: 'builtin/image-resize@latest', fields: { size: '512' } }, reason: null });
    expect(startReadiness(2, TEMPLATE_PRESET, okCheck).reason).toBe('Choose a Template to start.');
    expect(startReadiness(0, TEMPLATE_PRESET, okCheck, { id: 'x', fields: {} }).reason).toBe('Add files to start.');
  });

  it('says why Start is disabled', () => {
    expect(startReadiness(0, 'thumbs-256', okCheck).reason).toBe('Add files to start.');
    expect(startReadiness(3, CUSTOM_PRESET, badCheck).reason).toBe('Fix the JSON in the steps editor to start.');
    expect(startReadiness(3, CUSTOM_PRESET, checkStepsText('{}')).reason).toBe('Fix the steps to start.');
    expect(startReadiness(MAX_FILES_PER_RUN + 1, 'thumbs-256', okCheck).reason).toMatch(/at most 100,000 files/);
  });
});
