import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TransferRow } from '../../../../shared/ipc/transfer-models';
import { RowLine } from './TransferLines';

const row = (over: Partial<TransferRow>): TransferRow => ({
  id: 't:0',
  transferId: 't',
  batchId: 't:b0',
  relativePath: 'shoot/a.jpg',
  size: 1000,
  bytesSent: 1000,
  state: 'verified',
  method: 'multipart',
  attempts: 1,
  error: null,
  note: null,
  ...over,
});

describe('a file line', () => {
  afterEach(cleanup);

  it('says "Not verified", with why, for a file the service gave no checksum for — never "Done"', () => {
    render(<RowLine row={row({ state: 'unverified', note: 'Not verified: the service recorded no checksum for this file.' })} line={0} selected={false} focused={false} onControl={() => undefined} />);
    expect(screen.getByText('Not verified')).toBeTruthy();
    expect(screen.queryByText('Done')).toBeNull();
    expect(screen.getByTestId('transfer-note').textContent).toMatch(/no checksum/);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('says "Done" for a verified file', () => {
    render(<RowLine row={row({})} line={0} selected={false} focused={false} onControl={() => undefined} />);
    expect(screen.getByText('Done')).toBeTruthy();
  });
});
