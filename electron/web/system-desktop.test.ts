import { describe, expect, it } from 'vitest';
import { createSystemDesktop, launchDetached } from './system-desktop';

describe('system desktop', () => {
  it('reports a missing path as an error instead of launching anything', async () => {
    await expect(createSystemDesktop('linux').openPath('/no/such/file.jpg')).rejects.toThrow('does not exist');
  });
  it('reports a missing opener program as an error, not a crash', async () => {
    await expect(launchDetached('assemblyline-no-such-opener', [])).rejects.toThrow(/Could not run assemblyline-no-such-opener/);
  });
  it('resolves once a real program has started', async () => {
    await expect(launchDetached('true', [])).resolves.toBeUndefined();
  });
});
