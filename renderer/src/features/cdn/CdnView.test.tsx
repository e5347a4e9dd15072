import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CdnPreviewResult } from '../../../../shared/ipc/template-models';
import { ok } from '../../../../shared/result';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { CdnView } from './CdnView';

const key = { id: 'k1', authKey: 'cdnkey0123456789abcdef', description: 'CDN', isActive: true, smartCdn: true, scopes: null, signatureAlgo: null, canShowSecret: false, created: null, modified: null, lastUsed: null };
const URL_SIGNED = 'http://127.0.0.1:43210/file/local/thumbs/shop%2Fmug.jpg?auth_key=k&exp=1&w=150&sig=sha256%3Aab';

/** Signs and previews with the answer given; returns the bridge to read its calls. */
async function signWith(preview: CdnPreviewResult) {
  const bridge = createFakeBridge({
    'authKeys:list': () => ok([key]),
    'assets:list': () => ok({ assets: [], folders: [], nextCursor: null, workspace: 'local' }),
    'cdn:sign': () => ok({ url: URL_SIGNED, expiresAt: new Date(Date.now() + 3600_000).toISOString() }),
    'cdn:preview': () => ok(preview),
  });
  renderWithBridge(<CdnView />, bridge);
  fireEvent.change(await screen.findByLabelText('Template'), { target: { value: 'thumbs' } });
  fireEvent.change(screen.getByLabelText('File path'), { target: { value: 'shop/mug.jpg' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign URL' }));
  await screen.findByTestId('cdn-preview');
  return bridge;
}

describe('CDN URLs preview', () => {
  afterEach(cleanup);

  it('fetches the signed URL through core and shows the image, its type, size and cache state', async () => {
    const bridge = await signWith({ status: 200, contentType: 'image/png', size: 2048, cache: 'MISS', dataUrl: 'data:image/png;base64,iVBORw0KGgo=', error: null });
    const preview = screen.getByTestId('cdn-preview');
    expect((await within(preview).findByTestId('cdn-preview-image')).getAttribute('src')).toMatch(/^data:image\/png/);
    expect(within(preview).getByTestId('cdn-preview-facts').textContent).toMatch(/image\/png · 2(\.0)? KB.*cache miss/);
    expect(bridge.calls.filter((c) => c.channel === 'cdn:preview').map((c) => c.request)).toEqual([{ url: URL_SIGNED }]);
  });

  it('says the Template failed, with the service code, when the URL answers 422', async () => {
    await signWith({ status: 422, contentType: 'application/json', size: 90, cache: null, dataUrl: null, error: { code: 'INVALID_INPUT_ERROR', message: 'The Template "thumbs" failed at step "resized": not an image' } });
    const alert = await within(screen.getByTestId('cdn-preview')).findByRole('alert');
    expect(alert.textContent).toContain('The Template failed on this input');
    expect(alert.textContent).toContain('INVALID_INPUT_ERROR');
    expect(screen.queryByTestId('cdn-preview-image')).toBeNull();
  });

  it('says so when what is served is not an image it can show', async () => {
    await signWith({ status: 200, contentType: 'video/mp4', size: 10_000_000, cache: 'HIT', dataUrl: null, error: null });
    expect((await screen.findByTestId('cdn-preview-facts')).textContent).toContain('cache hit');
    expect(screen.getByText(/Not an image \(or over 8 MB\)/)).toBeTruthy();
  });
});

describe('CDN URLs and the smart_cdn:sign scope', () => {
  afterEach(cleanup);
  const narrow = { ...key, id: 'k2', authKey: 'narrowkey0123456789', description: 'Narrow', scopes: ['assemblies:read', 'write'] };

  it('explains, instead of offering a form, when the only Smart CDN key lacks smart_cdn:sign', async () => {
    renderWithBridge(<CdnView />, createFakeBridge({ 'authKeys:list': () => ok([narrow]) }));
    const why = await screen.findByTestId('cdn-scope-problem');
    expect(why.textContent).toContain('(assemblies:read, write) without smart_cdn:sign');
    expect(why.textContent).toContain('Add smart_cdn:sign to its scopes in Auth Keys');
    expect(screen.getByRole('button', { name: 'Open Auth Keys' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign URL' })).toBeNull();
  });

  it('offers only keys that may sign, and says which key is left out and why', async () => {
    const withScope = { ...key, id: 'k3', authKey: 'scopedkey0123456789', scopes: ['smart_cdn:sign'] };
    renderWithBridge(<CdnView />, createFakeBridge({ 'authKeys:list': () => ok([narrow, key, withScope]) }));
    const select = await screen.findByLabelText('Signing key');
    expect(within(select).getAllByRole('option').map((o) => (o as HTMLOptionElement).value)).toEqual(['k1', 'k3']);
    expect(screen.getByTestId('cdn-scope-problem').textContent).toMatch(/Not offered: narrowkey0123456…\s*— allowed for Smart CDN, but its scope list lacks smart_cdn:sign/);
  });

  it('says the Template cannot run on the Smart CDN when the service refuses its robots', async () => {
    await signWith({ status: 422, contentType: 'application/json', size: 120, cache: null, dataUrl: null, error: { code: 'CDN_TEMPLATE_ROBOT_NOT_ALLOWED', message: 'Step "exported" uses /sftp/store, which the Smart CDN does not run' } });
    const alert = await within(screen.getByTestId('cdn-preview')).findByRole('alert');
    expect(alert.textContent).toContain('The Template cannot run on the Smart CDN');
    expect(alert.textContent).toContain('CDN_TEMPLATE_ROBOT_NOT_ALLOWED');
  });
});
