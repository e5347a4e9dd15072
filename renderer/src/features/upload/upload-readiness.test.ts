import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../../../shared/api/presets';
import { checkStepsText } from '../../lib/step-checks';
import { CUSTOM_PRESET, TEMPLATE_PRESET } from '../../state/steps-store';
import { outcomeText, startReadiness } from './UploadView';

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
    // The queue takes any number of files: 250,000 start like 3.
    expect(startReadiness(250_000, 'thumbs-256', okCheck).reason).toBeNull();
  });
});

describe('outcomeText', () => {
  const before = { files: 10, duplicates: 0, unreadable: 0 };
  const after = (over: object) => ({ version: 2, scanning: false, files: 10, bytes: 0, unreadable: 0, duplicates: 0, ...over });

  it('says what a drop added, what was there already and what could not be read', () => {
    expect(outcomeText(before, after({ files: 2_010, duplicates: 3, unreadable: 1 }))).toBe('Added 2,000 files. 3 files were already in the list. 1 item could not be read.');
    expect(outcomeText(before, after({ duplicates: 1 }))).toBe('No new files. 1 file was already in the list.');
    expect(outcomeText(before, after({}))).toBe('Nothing to add: no files were found there.');
  });
});
