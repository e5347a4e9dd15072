import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeBridge, sampleTemplate } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useStepsChoice } from '../../state/steps-store';
import { TemplatePicker } from './TemplatePicker';

const video = sampleTemplate({
  id: 'builtin/video-encode@0.0.1',
  name: 'builtin/video-encode',
  content: {
    steps: {
      ':original': { robot: '/upload/handle' },
      encoded: { use: ':original', robot: '/video/encode', width: 1280, height: 720 },
      exported: { use: 'encoded', robot: '/s3/store' },
    },
  },
});

describe('Template picker', () => {
  beforeEach(() => useStepsChoice.getState().chooseTemplate(null));
  afterEach(cleanup);

  it('shows the chosen Template’s steps in order, read with templates:get', async () => {
    const bridge = createFakeBridge({ 'templates:list': () => ({ ok: true, value: { items: [video], count: 1 } }), 'templates:get': () => ({ ok: true, value: video }) });
    renderWithBridge(<TemplatePicker />, bridge);
    expect(screen.queryByTestId('template-steps')).toBeNull();
    fireEvent.change(await screen.findByTestId('template-select'), { target: { value: video.id } });
    const list = await screen.findByRole('list', { name: 'Steps of builtin/video-encode' });
    expect(within(list).getAllByTestId('template-step').map((li) => li.textContent)).toEqual([':original (/upload/handle)', 'encoded (/video/encode 1280×720)', 'exported (/s3/store)']);
    expect(bridge.calls.filter((c) => c.channel === 'templates:get').map((c) => c.request)).toEqual([{ id: video.id }]);
  });

  it('says when the steps cannot be read, with the service’s code', async () => {
    const bridge = createFakeBridge({
      'templates:list': () => ({ ok: true, value: { items: [video], count: 1 } }),
      'templates:get': () => ({ ok: false, error: { code: 'TEMPLATE_NOT_FOUND', message: 'No Template with this id.' } }),
    });
    renderWithBridge(<TemplatePicker />, bridge);
    fireEvent.change(await screen.findByTestId('template-select'), { target: { value: video.id } });
    const panel = await screen.findByTestId('template-steps-error');
    expect(panel.textContent).toContain('TEMPLATE_NOT_FOUND');
    await waitFor(() => expect(screen.queryByTestId('template-steps')).toBeNull());
  });
});
