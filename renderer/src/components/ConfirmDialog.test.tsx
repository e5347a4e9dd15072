import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfirmDialog } from './ConfirmDialog';

describe('ConfirmDialog', () => {
  afterEach(cleanup);

  it('names each dialog by its own title when a screen holds several', () => {
    const noop = () => undefined;
    render(
      <>
        <ConfirmDialog open={false} title="Delete the key?" confirmLabel="Delete" onConfirm={noop} onCancel={noop}>
          Gone for good.
        </ConfirmDialog>
        <ConfirmDialog open={false} title="Remove the workspace?" confirmLabel="Remove" onConfirm={noop} onCancel={noop}>
          And its secret.
        </ConfirmDialog>
      </>,
    );
    const dialogs = [...document.querySelectorAll('dialog')];
    const titles = dialogs.map((d) => document.getElementById(d.getAttribute('aria-labelledby') ?? '')?.textContent);
    expect(titles).toEqual(['Delete the key?', 'Remove the workspace?']);
  });
});
