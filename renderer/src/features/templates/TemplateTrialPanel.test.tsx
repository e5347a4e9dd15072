import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../../../shared/result';
import { createFakeBridge, sampleTrial } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useNavigation } from '../../state/navigation-store';
import { TemplateTrialPanel } from './TemplateTrialPanel';

afterEach(cleanup);

describe('TemplateTrialPanel', () => {
  it("shows the Template's last try as core kept it (a restart keeps it), with a link to each side's Assembly", async () => {
    const asked: unknown[] = [];
    const activated: string[] = [];
    const bridge = createFakeBridge({
      'templates:lastTrial': (req) => {
        asked.push(req);
        return ok(sampleTrial(req.id, true));
      },
      'workspaces:activate': (req) => {
        activated.push(req.id);
        return ok({});
      },
    });
    renderWithBridge(<TemplateTrialPanel templateId="tpl_thumbs" workspaceId="ws_remote" workspaceName="Production" />, bridge);
    const results = await screen.findByTestId('trial-results');
    expect(asked).toEqual([{ workspaceId: 'ws_remote', id: 'tpl_thumbs' }]);
    expect(within(results).getByTestId('trial-local-state').textContent).toBe('Completed in 1.5 s');
    const remote = screen.getByRole('link', { name: 'Open the Assembly on Production' });
    const local = screen.getByRole('link', { name: 'Open the Assembly on this computer' });
    expect([remote.getAttribute('href'), local.getAttribute('href')]).toEqual(['#/run/run_remote', '#/run/run_local']);
    // The Assembly view reads the active workspace: the link makes the run's own active, then opens it.
    fireEvent.click(local);
    await waitFor(() => expect(useNavigation.getState().route).toEqual({ name: 'run', runId: 'run_local' }));
    expect(activated).toEqual(['local']);
  });

  it('shows nothing but the picker for a Template never tried', async () => {
    let answered = false;
    const bridge = createFakeBridge({
      'templates:lastTrial': () => {
        answered = true;
        return ok(null);
      },
    });
    renderWithBridge(<TemplateTrialPanel templateId="tpl_new" workspaceId="ws_remote" workspaceName="Production" />, bridge);
    await waitFor(() => expect(answered).toBe(true));
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.getByText('No files chosen')).toBeTruthy();
    expect(screen.queryByTestId('trial-results')).toBeNull();
  });
});
