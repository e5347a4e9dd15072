import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../bridge/bridge-error';
import { utcText } from '../lib/date-time';
import { StaleNotice } from './StaleNotice';

describe('StaleNotice', () => {
  it('says when the data on screen was fetched, why the refresh failed, and retries on request', () => {
    const onRetry = vi.fn();
    const at = new Date(2026, 10, 25, 9, 41, 7).getTime();
    render(<StaleNotice updatedAt={at} error={new BridgeError({ code: 'SERVICE_UNREACHABLE', message: 'The service did not answer.' })} onRetry={onRetry} />);
    const notice = screen.getByTestId('stale-notice');
    // The app's one format (lib/date-time): local time, 24-hour, to the second; UTC on hover.
    expect(notice.textContent).toContain('Showing data from 09:41:07');
    expect(notice.querySelector('time')?.getAttribute('title')).toBe(utcText(new Date(at)));
    expect(notice.textContent).toContain('The service did not answer.');
    expect(notice.textContent).toContain('SERVICE_UNREACHABLE');
    screen.getByRole('button', { name: 'Retry' }).click();
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
