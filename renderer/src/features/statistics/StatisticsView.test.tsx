import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatsRequest } from '../../../../shared/ipc/account-models';
import { err, ok } from '../../../../shared/result';
import { sampleStats } from '../../bridge/test/fake-account';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { StatisticsView } from './StatisticsView';

const statsCalls = (bridge: ReturnType<typeof createFakeBridge>) => bridge.calls.filter((c) => c.channel === 'account:stats').map((c) => c.request as StatsRequest);

describe('Statistics', () => {
  afterEach(cleanup);

  it('asks for the last 24 hours by the hour in the workspace region and shows totals per outcome', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<StatisticsView />, bridge);
    await waitFor(() => expect(screen.getByTestId('stats-total-assemblies').textContent).toBe('4'));
    expect(screen.getByTestId('stats-total-successful').textContent).toBe('2');
    expect(screen.getByTestId('stats-total-canceled').textContent).toBe('1');
    expect(screen.getByTestId('stats-total-erroneous').textContent).toBe('1');
    expect(screen.getByTestId('stats-total-requestAborted').textContent).toBe('0');
    expect(screen.getByTestId('stats-resolution').textContent).toBe('By the hour · region local');
    const [first] = statsCalls(bridge);
    expect(first).toMatchObject({ region: 'workspace', granularity: 3600 });
    expect(first!.until - first!.since).toBeGreaterThan(23 * 3600);
    expect(screen.getByTestId('stats-assemblies-chart-caption').textContent).toContain('4 Assemblies: 2 successful, 1 canceled, 1 erroneous, 0 request aborted.');
    expect(within(screen.getByTestId('stats-errors')).getByText('INVALID_INPUT_ERROR')).toBeTruthy();
  });

  it('shows the figures behind a chart as a table', async () => {
    renderWithBridge(<StatisticsView />, createFakeBridge());
    const chart = await screen.findByTestId('stats-assemblies-chart');
    fireEvent.click(within(chart).getByRole('button', { name: 'Show table' }));
    const table = within(chart).getByRole('table', { name: 'Assemblies by outcome' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(chart).getByRole('button', { name: 'Show chart' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('asks by the day for 7 days, for all regions when chosen, and refuses a backwards custom range', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<StatisticsView />, bridge);
    await waitFor(() => expect(screen.getByTestId('stats-total-assemblies').textContent).toBe('4'));
    fireEvent.click(screen.getByRole('button', { name: 'Last 7 days' }));
    await waitFor(() => expect(statsCalls(bridge).at(-1)).toMatchObject({ granularity: 86400 }));
    fireEvent.change(screen.getByLabelText('Region'), { target: { value: 'all' } });
    await waitFor(() => expect(statsCalls(bridge).at(-1)).toMatchObject({ region: 'all', granularity: 86400 }));
    fireEvent.click(screen.getByRole('button', { name: 'Custom' }));
    fireEvent.change(screen.getByLabelText('First day'), { target: { value: '2026-11-20' } });
    fireEvent.change(screen.getByLabelText('Last day'), { target: { value: '2026-11-10' } });
    expect((await screen.findByTestId('stats-range-error')).textContent).toBe('The last day is before the first.');
  });

  it('explains a missing assemblies:read scope', async () => {
    renderWithBridge(<StatisticsView />, createFakeBridge({ 'account:stats': () => err('INSUFFICIENT_AUTH_SCOPE', 'The key lacks assemblies:read.', { httpCode: 403 }) }));
    const alert = await screen.findByTestId('statistics-error');
    expect(alert.textContent).toContain('assemblies:read');
    expect(alert.textContent).toContain('INSUFFICIENT_AUTH_SCOPE');
  });

  it('keeps the last figures, marked stale, when the service stops answering', async () => {
    let up = true;
    renderWithBridge(<StatisticsView />, createFakeBridge({ 'account:stats': (r) => (up ? ok(sampleStats(r)) : err('NETWORK_ERROR', 'Could not reach the service.')) }));
    await waitFor(() => expect(screen.getByTestId('stats-total-assemblies').textContent).toBe('4'));
    up = false;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findByTestId('stale-notice')).textContent).toContain('NETWORK_ERROR');
    expect(screen.getByTestId('stats-total-assemblies').textContent).toBe('4');
  });

  it('says when the range has no Assemblies', async () => {
    renderWithBridge(
      <StatisticsView />,
      createFakeBridge({ 'account:stats': (r) => ok(sampleStats(r, { buckets: [], errors: [], totals: { ...sampleStats(r).totals, assemblies: 0 } })) }),
    );
    expect(await screen.findByText('No Assemblies in this range')).toBeTruthy();
  });
});
