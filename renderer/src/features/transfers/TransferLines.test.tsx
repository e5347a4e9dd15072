import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transfer, TransferBatch, TransferRow } from '../../../../shared/ipc/transfer-models';
import { BatchLine, RowLine } from './TransferLines';

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

  it('says "Sent", plainly, for a file delivered whole where the service records no checksums — never "Done", no amber per row', () => {
    render(<RowLine row={row({ state: 'unverified' })} line={0} selected={false} focused={false} onControl={() => undefined} />);
    expect(screen.getByText('Sent').className).not.toMatch(/warning/);
    expect(screen.queryByText('Done')).toBeNull();
    expect(screen.queryByText('Not verified')).toBeNull();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('says "Not verified" once, on the batch, with why', () => {
    const batch: TransferBatch = { id: 't:b0', transferId: 't', label: 'shoot', seq: 1, state: 'completed', runId: 'r', assemblyId: 'a', filesTotal: 2, filesDone: 2, filesFailed: 0, bytesTotal: 2000, bytesSent: 2000, error: null, note: 'Not verified: this service records no checksums (md5hash), so its files were checked by size only.' };
    render(<BatchLine batchId="t:b0" batch={batch} transfer={undefined} rowsShown={2} line={0} focused={false} onControl={() => undefined} onOpenRun={() => undefined} />);
    expect(screen.getByTestId('batch-note').textContent).toBe(batch.note);
  });

  it('says "Done" for a verified file', () => {
    render(<RowLine row={row({})} line={0} selected={false} focused={false} onControl={() => undefined} />);
    expect(screen.getByText('Done')).toBeTruthy();
  });
});

describe('a batch line', () => {
  afterEach(cleanup);
  const batch = (over: Partial<TransferBatch>): TransferBatch => ({ id: 't:b0', transferId: 't', label: 'Files 1–11', seq: 1, state: 'uploading', runId: 'r', assemblyId: 'a', filesTotal: 11, filesDone: 3, filesFailed: 0, bytesTotal: 11_000, bytesSent: 3_000, error: null, note: null, ...over });
  const transfer = (over: Partial<Transfer>): Transfer => ({ id: 't', workspaceId: 'local', createdAt: new Date().toISOString(), label: 'holiday photos', scanning: false, state: 'active', recipe: 'Just store the originals', batchCount: 1, filesTotal: 11, filesDone: 3, filesFailed: 0, bytesTotal: 11_000, bytesSent: 3_000, ...over });

  it("names its buttons for the drop (the folder or first file), not for the files' numbers every drop has", () => {
    render(<BatchLine batchId="t:b0" batch={batch({})} transfer={transfer({})} rowsShown={11} line={0} focused={false} onControl={() => undefined} onOpenRun={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Open the Assembly of holiday photos' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel batch holiday photos' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Files 1–11/ })).toBeNull();
  });

  it('says which Assembly of the drop when it has more than one', () => {
    render(<BatchLine batchId="t:b1" batch={batch({ id: 't:b1', seq: 2, label: 'Files 1,001–2,000' })} transfer={transfer({ label: 'IMG_0001.jpg', batchCount: 3 })} rowsShown={1_000} line={0} focused={false} onControl={() => undefined} onOpenRun={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Open the Assembly of IMG_0001.jpg · Assembly 2 of 3' })).toBeTruthy();
  });
});
