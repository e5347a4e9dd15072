import { act, cleanup, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_UPLOAD_OPTIONS, type DraftChoice } from '../../../../shared/ipc/draft-choice';
import { createFakeBridge, type FakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { choiceOf, stateOfChoice, useStepsChoice } from '../../state/steps-store';
import { CHOICE_SAVE_DELAY_MS, useSavedStepsChoice } from './use-saved-choice';

const Probe = () => {
  useSavedStepsChoice();
  return null;
};

const kept: DraftChoice = {
  presetId: 'template',
  customText: '{ "half": ',
  templateId: '0123456789abcdef0123456789abcdef',
  templateFields: { width: '640' },
  // The Options persist with the choice, as typed (a bad value too: it is shown again at its field).
  options: { notifyUrl: 'https://example.com/hook', leaveOut: ['without_results'], maxSize: '500 MB', maxNumberOfFiles: 'x', referer: '', fields: [{ key: 'album', value: 'Trip' }], stackVersion: 'v7' },
};
const saves = (bridge: FakeBridge) => bridge.calls.filter((c) => c.channel === 'drafts:saveChoice').map((c) => (c.request as { choice: DraftChoice }).choice);

describe('the steps choice kept by core', () => {
  beforeEach(() => {
    useStepsChoice.getState().choose('resize-1024');
  });
  afterEach(cleanup);

  it('puts back what core kept, without saving it again', async () => {
    const bridge = createFakeBridge({ 'drafts:choice': () => ({ ok: true, value: kept }) });
    renderWithBridge(<Probe />, bridge);
    await waitFor(() => expect(choiceOf(useStepsChoice.getState())).toEqual(kept));
    await new Promise((r) => setTimeout(r, CHOICE_SAVE_DELAY_MS + 50));
    expect(saves(bridge)).toEqual([]);
  });

  it('saves once the user pauses typing, the last text only', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<Probe />, bridge);
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'drafts:choice')).toBe(true));
    await act(async () => {
      useStepsChoice.getState().choose('custom');
      for (const text of ['{', '{ "a"', '{ "a": 1 }']) useStepsChoice.getState().setCustomText(text);
    });
    expect(saves(bridge)).toEqual([]);
    await waitFor(() => expect(saves(bridge)).toHaveLength(1));
    expect(saves(bridge)[0]).toMatchObject({ presetId: 'custom', customText: '{ "a": 1 }' });
    const answer = await bridge.invoke('drafts:choice', {});
    expect(answer.ok && answer.value?.customText).toBe('{ "a": 1 }');
  });

  it('saves at once when the page goes away (a reload)', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<Probe />, bridge);
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'drafts:choice')).toBe(true));
    await act(async () => useStepsChoice.getState().chooseTemplate('abc'));
    window.dispatchEvent(new Event('pagehide'));
    expect(saves(bridge)).toEqual([expect.objectContaining({ presetId: 'template', templateId: 'abc' })]);
  });

  it('a choice made before core answered wins over the kept one, and is saved', async () => {
    let answer: (v: { ok: true; value: DraftChoice }) => void = () => undefined;
    const bridge = createFakeBridge({ 'drafts:choice': () => new Promise((r) => (answer = r)) });
    renderWithBridge(<Probe />, bridge);
    useStepsChoice.getState().chooseTemplate('picked-in-templates');
    answer({ ok: true, value: kept });
    await waitFor(() => expect(saves(bridge)).toHaveLength(1));
    expect(useStepsChoice.getState().templateId).toBe('picked-in-templates');
  });

  it('a preset this version no longer has keeps the current preset, and the rest of the choice', () => {
    expect(stateOfChoice({ ...kept, presetId: 'gone-preset' })).toEqual({ customText: kept.customText, templateId: kept.templateId, templateFields: kept.templateFields, options: kept.options });
    // A draft saved before Options existed has none set.
    const { options: _none, ...older } = kept;
    expect(stateOfChoice(older).options).toEqual(EMPTY_UPLOAD_OPTIONS);
    expect(stateOfChoice(kept).presetId).toBe('template');
  });
});
