import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorPanel } from './ErrorPanel';

describe('ErrorPanel', () => {
  afterEach(cleanup);

  it('shows the code as code, the facts and a hint, and an HTTP status only when it is an error status', () => {
    render(<ErrorPanel data-testid="p" title="Failed" code="IMAGE_RESIZE_VALIDATION" message="width is too big" httpCode={200} facts={[{ label: 'Step', value: 'small', code: true }]} />);
    const panel = screen.getByTestId('p');
    expect(within(panel).getByText('IMAGE_RESIZE_VALIDATION').tagName).toBe('CODE');
    expect(within(panel).getByText('small').tagName).toBe('CODE');
    expect(panel.textContent).toContain('its robot does not accept');
    expect(panel.textContent).not.toContain('HTTP');
    cleanup();
    render(<ErrorPanel data-testid="p" title="Failed" code="INVALID_SIGNATURE" message="no" httpCode={401} />);
    expect(screen.getByTestId('p').textContent).toContain('HTTP 401');
  });
});
