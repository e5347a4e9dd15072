import { describe, expect, it } from 'vitest';
import { describeRunState, humanizeCode, isStoreOnly, runErrorOf } from './run-state';

const run = (state: string, extra: object = {}) => ({ state, error: null, status: null, ...extra });

describe('describeRunState', () => {
  it('maps the service codes to the badge labels', () => {
    expect(describeRunState(run('CREATING')).label).toBe('Creating');
    expect(describeRunState(run('ASSEMBLY_UPLOADING'))).toMatchObject({ label: 'Uploading', busy: true });
    expect(describeRunState(run('ASSEMBLY_EXECUTING'))).toMatchObject({ label: 'Processing', busy: true });
    expect(describeRunState(run('ASSEMBLY_COMPLETED'))).toMatchObject({ label: 'Completed', tone: 'success', busy: false });
    expect(describeRunState(run('ASSEMBLY_CANCELED'))).toMatchObject({ label: 'Canceled', busy: false });
  });

  it('shows Failed when the run or the status carries an error', () => {
    expect(describeRunState(run('ASSEMBLY_EXECUTING', { error: { code: 'UPLOAD_FAILED', message: 'x' } })).label).toBe('Failed');
    expect(describeRunState(run('INVALID_INPUT_ERROR', { status: { error: 'INVALID_INPUT_ERROR' } })).label).toBe('Failed');
  });

  it('keeps unknown codes visible instead of dropping them', () => {
    expect(describeRunState(run('ASSEMBLY_NOTIFICATION_REPLAYED'))).toMatchObject({ label: 'Notification replayed', busy: false });
    expect(humanizeCode('REQUEST_ABORTED')).toBe('Request aborted');
  });
});

describe('processing, told truthfully', () => {
  const totals = (uploaded: number) => ({ bytesTotal: 3000, bytesUploaded: uploaded, filesTotal: 2, filesUploaded: uploaded === 3000 ? 2 : 0, speedBps: 0, etaSeconds: null });

  it('says Processing, not Uploading, once every byte is up', () => {
    expect(describeRunState(run('ASSEMBLY_UPLOADING', { totals: totals(1500) })).label).toBe('Uploading');
    expect(describeRunState(run('ASSEMBLY_UPLOADING', { totals: totals(3000) })).label).toBe('Processing');
  });

  it('knows a store-only Assembly from its params', () => {
    expect(isStoreOnly({ params: JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, kept: { robot: '/s3/store', use: ':original' } } }) })).toBe(true);
    expect(isStoreOnly({ params: JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, r: { robot: '/image/resize' } } }) })).toBe(false);
    expect(isStoreOnly({ params: 'not json' })).toBe(false);
    expect(isStoreOnly(null)).toBe(false);
  });
});

describe('runErrorOf', () => {
  it('prefers the app error, then the service status error', () => {
    expect(runErrorOf(run('X', { error: { code: 'NETWORK_ERROR', message: 'down' } }))).toEqual({ code: 'NETWORK_ERROR', message: 'down' });
    expect(runErrorOf(run('X', { status: { error: 'IMAGE_RESIZE_VALIDATION', message: 'bad width', http_code: 400 } }))).toEqual({
      code: 'IMAGE_RESIZE_VALIDATION',
      message: 'bad width',
      httpCode: 400,
    });
    expect(runErrorOf(run('ASSEMBLY_COMPLETED'))).toBeNull();
  });

  it('says where and why, and never "HTTP 200": a failed status record comes with 200', () => {
    const failed = { error: 'INVALID_INPUT_ERROR', message: 'Step "resized" could use none of its 1 input file(s).', http_code: 200, step: 'resized', reason: 'empty file' };
    expect(runErrorOf(run('INVALID_INPUT_ERROR', { status: failed }))).toEqual({
      code: 'INVALID_INPUT_ERROR',
      message: failed.message,
      step: 'resized',
      reason: 'empty file',
    });
    // Core's error (its details) and the status together; a reason equal to the message is not repeated.
    const error = { code: 'FILE_FILTER_DECLINED_FILE', message: 'Too big.', details: { step: 'small', reason: 'Too big.' } };
    expect(runErrorOf(run('FILE_FILTER_DECLINED_FILE', { error, status: { error: 'FILE_FILTER_DECLINED_FILE', http_code: 200, parameter: 'accepts' } }))).toEqual({
      code: 'FILE_FILTER_DECLINED_FILE',
      message: 'Too big.',
      step: 'small',
      parameter: 'accepts',
    });
  });
});
