import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobSlots } from '../../../../shared/ipc/queue-models';
import { err, ok } from '../../../../shared/result';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useNavigation } from '../../state/navigation-store';
import { QueueView } from './QueueView';

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);
const busy = (): JobSlots => ({
  inUse: 1,
  total: 2,
  jobs: [{ assemblyId: A, step: 'encoded', jobId: 'f'.repeat(32), robot: '/video/encode', startedAt: new Date(Date.now() - 75_000).toISOString() }],
  waiting: [{ assemblyId: B, jobs: 2, since: new Date(Date.now() - 5_000).toISOString() }],
  fetchedAt: new Date().toISOString(),
});

describe('QueueView', () => {
  afterEach(cleanup);

  it('says "No jobs running" when every slot is free', async () => {
    renderWithBridge(<QueueView />, createFakeBridge());
    expect(await screen.findByText('No jobs running')).toBeTruthy();
    expect(screen.getByTestId('queue-slots-summary').textContent).toContain('0 of 2 slots in use');
    expect(screen.getByTestId('queue-waiting-none')).toBeTruthy();
  });

  it('lists each running job with its step, robot and time, and the Assemblies waiting; an id opens its Assembly', async () => {
    renderWithBridge(<QueueView />, createFakeBridge({ 'queue:jobSlots': () => ok(busy()) }));
    const row = await screen.findByTestId('queue-job-row');
    expect(row.textContent).toContain(A);
    expect(row.textContent).toContain('encoded');
    expect(row.textContent).toContain('/video/encode');
    expect(row.textContent).toMatch(/1 min 1\d s/);
    expect(screen.getByTestId('queue-slots-summary').textContent).toContain('1 of 2 slots in use');
    expect(screen.getByTestId('queue-waiting-row').textContent).toContain('2 jobs');
    const link = screen.getByRole('link', { name: A });
    expect(link.getAttribute('href')).toBe(`#/assemblies/${A}`);
    fireEvent.click(link);
    expect(useNavigation.getState().route).toEqual({ name: 'assembly', assemblyId: A });
  });

  it('explains a missing queues:read scope when there is nothing to show', async () => {
    const bridge = createFakeBridge({ 'queue:jobSlots': () => err('INSUFFICIENT_AUTH_SCOPE', 'This request needs the scope queues:read.') });
    renderWithBridge(<QueueView />, bridge);
    const alert = await screen.findByText('Could not read the job slots');
    expect(alert.closest('.error-panel')!.textContent).toContain('lacks the scope this screen needs');
  });

  it('keeps the last answer on screen, marked stale, when a refresh fails', async () => {
    let up = true;
    const bridge = createFakeBridge({ 'queue:jobSlots': () => (up ? ok(busy()) : err('SERVICE_UNREACHABLE', 'The service did not answer.')) });
    renderWithBridge(<QueueView />, bridge);
    await screen.findByTestId('queue-job-row');
    up = false;
    await waitFor(() => expect(screen.getByTestId('stale-notice').textContent).toContain('SERVICE_UNREACHABLE'), { timeout: 3000 });
    expect(screen.getByTestId('queue-job-row').textContent).toContain(A);
  });

  it('works with a service that only says the count (the hosted one): no total, no waiting list', async () => {
    const hosted: JobSlots = { ...busy(), total: null, waiting: null, jobs: [{ ...busy().jobs[0]!, robot: null }] };
    renderWithBridge(<QueueView />, createFakeBridge({ 'queue:jobSlots': () => ok(hosted) }));
    const row = await screen.findByTestId('queue-job-row');
    expect(row.textContent).toContain('—');
    expect(screen.getByTestId('queue-slots-summary').textContent).toBe('1 slot in use');
    expect(screen.getByText('This service does not list the Assemblies waiting for a slot.')).toBeTruthy();
  });
});
