import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followLocation, useNavigation } from './navigation-store';

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 50 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
};

describe('navigation in the URL', () => {
  let stop: () => void = () => undefined;
  beforeEach(() => {
    window.history.replaceState(null, '', '/?token=abc');
    useNavigation.setState({ route: { name: 'upload' } });
    stop = followLocation(window);
  });
  afterEach(() => stop());

  it('puts the screen and item in the hash, keeping the query', () => {
    useNavigation.getState().navigate({ name: 'run', runId: 'r1' });
    expect(window.location.hash).toBe('#/run/r1');
    expect(window.location.search).toBe('?token=abc');
  });

  it('adds one history entry per move, none for the screen already shown', () => {
    const before = window.history.length;
    useNavigation.getState().navigate({ name: 'activity' });
    useNavigation.getState().navigate({ name: 'activity' });
    useNavigation.getState().navigate({ name: 'run', runId: 'r1' });
    expect(window.history.length).toBe(before + 2);
  });

  it('a replace (a redirect) adds no entry', () => {
    const before = window.history.length;
    useNavigation.getState().navigate({ name: 'transfers' }, { replace: true });
    expect(window.location.hash).toBe('#/transfers');
    expect(window.history.length).toBe(before);
  });

  it('Back and Forward show the screen of their entry', async () => {
    const { navigate } = useNavigation.getState();
    navigate({ name: 'activity' });
    navigate({ name: 'run', runId: 'r1' });
    window.history.back();
    await waitFor(() => useNavigation.getState().route.name === 'activity');
    expect(useNavigation.getState().route).toEqual({ name: 'activity' });
    window.history.forward();
    await waitFor(() => useNavigation.getState().route.name === 'run');
    expect(useNavigation.getState().route).toEqual({ name: 'run', runId: 'r1' });
  });

  it('a hash typed by hand shows its screen; one naming nothing is replaced by Upload', async () => {
    window.location.hash = '#/templates/builtin%2Fresize%401';
    await waitFor(() => useNavigation.getState().route.name === 'templates');
    expect(useNavigation.getState().route).toEqual({ name: 'templates', selectedId: 'builtin/resize@1' });
    window.location.hash = '#/no-such-screen';
    await waitFor(() => useNavigation.getState().route.name === 'upload');
    expect(useNavigation.getState().route).toEqual({ name: 'upload' });
    expect(window.location.hash).toBe('#/upload');
  });
});

describe('the URL when the app mounts', () => {
  it('says the route the store holds, replacing a hash that names nothing', () => {
    window.history.replaceState(null, '', '/#/no-such-screen');
    useNavigation.setState({ route: { name: 'run', runId: 'r9' } });
    const before = window.history.length;
    const stop = followLocation(window);
    expect(window.location.hash).toBe('#/run/r9');
    expect(window.history.length).toBe(before);
    stop();
  });

  it('leaves a first load without a hash as it is (the Upload view)', () => {
    window.history.replaceState(null, '', '/?token=abc');
    useNavigation.setState({ route: { name: 'upload' } });
    const stop = followLocation(window);
    expect(window.location.href).toMatch(/\/\?token=abc$/);
    stop();
  });
});

describe('a reload', () => {
  it('starts on the screen and item the URL names', async () => {
    window.history.replaceState(null, '', '/#/templates/builtin%2Fresize%401/duplicate');
    vi.resetModules();
    const fresh = await import('./navigation-store');
    expect(fresh.useNavigation.getState().route).toEqual({ name: 'template-editor', id: 'builtin/resize@1', copy: true });
  });
});
