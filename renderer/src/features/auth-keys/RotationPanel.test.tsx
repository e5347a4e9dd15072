import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Rotation } from '../../../../shared/ipc/workspace-models';
import { ok } from '../../../../shared/result';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { RotationPanel } from './RotationPanel';

const rotation = (over: Partial<Rotation> = {}): Rotation => ({
  id: 'rot-1',
  workspaceId: 'ws-1',
  workspaceName: 'Studio',
  oldKey: 'old0000000000000',
  oldKeyId: 'k-old',
  newKey: 'new0000000000000',
  newKeyId: 'k-new',
  completed: ['create-key', 'store-secret', 'verify'],
  state: 'interrupted',
  error: { code: 'AUTH_KEY_NOT_UPDATED', message: 'The service refused.' },
  oldKeyDeleted: false,
  startedAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:01:00.000Z',
  log: [{ at: '2026-11-24T10:00:00.000Z', message: 'Rotation of old0000000000000 started.' }],
  ...over,
});

describe('Rotation panel', () => {
  afterEach(cleanup);

  it('tells where an interrupted rotation stopped and offers Resume and Roll back', async () => {
    const bridge = createFakeBridge({ 'rotations:resume': () => ok(rotation({ state: 'done', completed: ['create-key', 'store-secret', 'verify', 'switch', 'deactivate-old', 'done'], error: null })) });
    renderWithBridge(<RotationPanel rotation={rotation()} />, bridge);
    expect(screen.getByRole('alert').textContent).toContain('Stopped before "Switch the workspace to the new key"');
    expect(screen.getByText('AUTH_KEY_NOT_UPDATED')).toBeTruthy();
    expect(screen.getByText('Switch the workspace to the new key').closest('li')?.getAttribute('aria-current')).toBe('step');
    expect(screen.getByRole('button', { name: 'Roll back' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'rotations:resume')).toBe(true));
    expect(bridge.calls.find((c) => c.channel === 'rotations:resume')?.request).toEqual({ id: 'rot-1' });
  });

  it('after a finished rotation offers only to delete the old key, then says it is gone', () => {
    const done = rotation({ state: 'done', error: null, completed: ['create-key', 'store-secret', 'verify', 'switch', 'deactivate-old', 'done'] });
    renderWithBridge(<RotationPanel rotation={done} />, createFakeBridge());
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Roll back' })).toBeNull();
    expect(screen.getByRole('button', { name: /Delete the old key old00000/ })).toBeTruthy();
    cleanup();
    renderWithBridge(<RotationPanel rotation={{ ...done, oldKeyDeleted: true }} />, createFakeBridge());
    expect(screen.queryByRole('button', { name: /Delete the old key/ })).toBeNull();
    expect(screen.getByText('The old key is deleted.')).toBeTruthy();
  });
});
