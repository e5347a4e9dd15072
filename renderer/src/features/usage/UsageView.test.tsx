import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { err, ok } from '../../../../shared/result';
import { sampleBill } from '../../bridge/test/fake-account';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { monthOf, shiftMonth } from './bill-month';
import { UsageView } from './UsageView';

const thisMonth = monthOf(Date.now());
const billCalls = (bridge: ReturnType<typeof createFakeBridge>) => bridge.calls.filter((c) => c.channel === 'account:bill').map((c) => (c.request as { month: string }).month);

describe('Usage', () => {
  afterEach(cleanup);

  it('shows the current month: not invoiced, used GB of what is included, total, robots by billed GB', async () => {
    renderWithBridge(<UsageView />, createFakeBridge());
    expect((await screen.findByTestId('bill-state')).textContent).toBe('Current month — not invoiced yet');
    expect(screen.getByTestId('bill-used-gb').textContent).toBe('2.50 GB');
    expect(screen.getByTestId('bill-summary').textContent).toContain('of 10.00 GB included (25 %)');
    expect(screen.getByTestId('allowance-bar').getAttribute('data-tone')).toBe('success');
    expect(screen.getByTestId('bill-total').textContent).toBe('0.00');
    expect(screen.getAllByTestId('robot-row').map((r) => r.getAttribute('data-robot'))).toEqual(['/assemblies', '/video/encode', '/image/resize']);
    expect(screen.getByTestId('usage-days-chart-caption').textContent).toBe(`2.50 GB over 2 of 3 days (4 Assemblies); busiest ${thisMonth}-03 with 2.00 GB.`);
  });

  it('sorts the robot table by the column clicked, and back', async () => {
    renderWithBridge(<UsageView />, createFakeBridge());
    await screen.findAllByTestId('robot-row');
    fireEvent.click(screen.getByRole('button', { name: /^Robot/ }));
    expect(screen.getAllByTestId('robot-row').map((r) => r.getAttribute('data-robot'))).toEqual(['/assemblies', '/image/resize', '/video/encode']);
    expect(screen.getByRole('columnheader', { name: /^Robot/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByRole('button', { name: /^Robot/ }));
    expect(screen.getAllByTestId('robot-row')[0]!.getAttribute('data-robot')).toBe('/video/encode');
  });

  it('steps months with the arrow keys, never into the future', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<UsageView />, bridge);
    const picker = await screen.findByTestId('month-picker');
    expect(screen.getByRole('button', { name: 'Next month' }).hasAttribute('disabled')).toBe(true);
    fireEvent.keyDown(picker, { key: 'ArrowRight' });
    fireEvent.keyDown(picker, { key: 'ArrowLeft' });
    const previous = shiftMonth(thisMonth, -1, Date.now());
    await waitFor(() => expect(screen.getByTestId('month-label').getAttribute('data-month')).toBe(previous));
    await waitFor(() => expect(billCalls(bridge)).toEqual([thisMonth, previous]));
  });

  it('says when a month had no usage', async () => {
    const bridge = createFakeBridge({ 'account:bill': (r) => ok(sampleBill(r.month, { usedGb: 0, robots: [], days: [{ date: `${r.month}-01`, gb: 0, assemblies: 0 }] })) });
    renderWithBridge(<UsageView />, bridge);
    expect(await screen.findByText(/^No usage in /)).toBeTruthy();
    expect(screen.queryByTestId('robot-table')).toBeNull();
  });

  it('says what makes the total differ from the subtotal', async () => {
    renderWithBridge(<UsageView />, createFakeBridge({ 'account:bill': (r) => ok(sampleBill(r.month, { subTotal: 49, vat: 10.29, total: 59.29, currency: 'USD' })) }));
    expect((await screen.findByTestId('bill-total')).textContent).toBe('59.29 USD');
    expect(screen.getByTestId('bill-breakdown').textContent).toBe('Subtotal 49.00 USD · VAT 10.29 USD');
  });

  it('warns past 80 % of what the plan includes', async () => {
    renderWithBridge(<UsageView />, createFakeBridge({ 'account:bill': (r) => ok(sampleBill(r.month, { usedGb: 8.5 })) }));
    expect((await screen.findByTestId('allowance-bar')).getAttribute('data-tone')).toBe('warning');
  });

  it('explains a missing billing:read scope', async () => {
    renderWithBridge(<UsageView />, createFakeBridge({ 'account:bill': () => err('INSUFFICIENT_AUTH_SCOPE', 'The key lacks billing:read.', { httpCode: 403 }) }));
    const alert = await screen.findByTestId('usage-error');
    expect(within(alert).getByText('INSUFFICIENT_AUTH_SCOPE')).toBeTruthy();
    expect(alert.textContent).toContain('billing:read');
    expect(alert.textContent).toContain('Widen the token scopes');
    expect(within(alert).getByRole('button', { name: 'Open Workspaces' })).toBeTruthy();
  });

  it('keeps the last bill on screen, marked stale, when a refresh fails', async () => {
    let up = true;
    const bridge = createFakeBridge({ 'account:bill': (r) => (up ? ok(sampleBill(r.month)) : err('LOCAL_SERVICE_UNAVAILABLE', 'The local service is restarting.')) });
    renderWithBridge(<UsageView />, bridge);
    await screen.findByTestId('bill-summary');
    up = false;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    const notice = await screen.findByTestId('stale-notice');
    expect(notice.textContent).toContain('LOCAL_SERVICE_UNAVAILABLE');
    expect(screen.getByTestId('bill-used-gb').textContent).toBe('2.50 GB');
    expect(screen.queryByTestId('usage-error')).toBeNull();
  });
});
