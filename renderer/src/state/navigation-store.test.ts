import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followLocation, guarded, guardUnload, LAST_ROUTE_KEY, rememberRoute, useNavigation } from './navigation-store';

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

describe('a restart (Electron loads the page without a hash)', () => {
  const memory = () => {
    const items = new Map<string, string>();
    return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
  };
  const start = (url: string) => {
    window.history.replaceState(null, '', url);
    useNavigation.setState({ route: { name: 'upload' } });
  };

  it('reopens the screen and item shown last, in the URL too', () => {
    const storage = memory();
    start('/index.html');
    const first = rememberRoute(window, storage);
    useNavigation.getState().navigate({ name: 'templates', selectedId: 'builtin/resize@1' });
    useNavigation.getState().navigate({ name: 'run', runId: 'r7' });
    first();

    start('/index.html');
    const before = window.history.length;
    const second = rememberRoute(window, storage);
    expect(useNavigation.getState().route).toEqual({ name: 'run', runId: 'r7' });
    expect(window.location.hash).toBe('#/run/r7');
    // Replaced, not pushed: Back does not step through an empty Upload view first.
    expect(window.history.length).toBe(before);
    second();
  });

  it('a hash in the URL wins over the remembered screen, and becomes the remembered one', () => {
    const storage = memory();
    storage.setItem(LAST_ROUTE_KEY, '#/run/r7');
    start('/index.html#/activity');
    useNavigation.setState({ route: { name: 'activity' } });
    const stop = rememberRoute(window, storage);
    expect(useNavigation.getState().route).toEqual({ name: 'activity' });
    expect(storage.getItem(LAST_ROUTE_KEY)).toBe('#/activity');
    stop();
  });

  it('a remembered hash that names nothing (an older version, a typo) opens Upload', () => {
    const storage = memory();
    storage.setItem(LAST_ROUTE_KEY, '#/no-such-screen/42');
    start('/index.html');
    const stop = rememberRoute(window, storage);
    expect(useNavigation.getState().route).toEqual({ name: 'upload' });
    stop();
  });

  it('storage that refuses (disabled, full) still starts, on Upload', () => {
    start('/index.html');
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const stop = rememberRoute(window, broken);
    useNavigation.getState().navigate({ name: 'cdn' });
    expect(useNavigation.getState().route).toEqual({ name: 'cdn' });
    stop();
  });
});


describe('the navigation guard over unsaved input', () => {
  let stop: () => void = () => undefined;
  const unsaved = (what = 'the Template editor') => useNavigation.setState({ unsaved: new Map([['form-x', what]]) });
  beforeEach(() => {
    window.history.replaceState(null, '', '/#/templates/new');
    useNavigation.setState({ route: { name: 'template-editor' }, unsaved: new Map(), pending: null });
    stop = followLocation(window);
  });
  afterEach(() => stop());

  it('goes at once when nothing is unsaved', () => {
    useNavigation.getState().navigate({ name: 'activity' });
    expect(useNavigation.getState().route).toEqual({ name: 'activity' });
  });

  it('holds a move over unsaved input: Stay keeps the screen and the URL, Leave goes and lets the input go', () => {
    unsaved();
    useNavigation.getState().navigate({ name: 'activity' });
    expect(useNavigation.getState().route).toEqual({ name: 'template-editor' });
    expect(window.location.hash).toBe('#/templates/new');
    expect(useNavigation.getState().pending?.what).toEqual(['the Template editor']);
    useNavigation.getState().stay();
    expect(useNavigation.getState().pending).toBeNull();
    expect(useNavigation.getState().route).toEqual({ name: 'template-editor' });
    useNavigation.getState().navigate({ name: 'activity' });
    useNavigation.getState().leave();
    expect(useNavigation.getState().route).toEqual({ name: 'activity' });
    expect(window.location.hash).toBe('#/activity');
    expect(useNavigation.getState().unsaved.size).toBe(0);
  });

  it('a move after a save (force) does not ask', () => {
    unsaved();
    useNavigation.getState().navigate({ name: 'templates' }, { replace: true, force: true });
    expect(useNavigation.getState().route).toEqual({ name: 'templates' });
    expect(useNavigation.getState().pending).toBeNull();
  });

  it('guards any other way out the same way (a workspace switch)', () => {
    const ran: string[] = [];
    guarded(() => ran.push('switch'));
    expect(ran).toEqual(['switch']);
    unsaved('the form “New credentials”');
    guarded(() => ran.push('switch again'));
    expect(ran).toEqual(['switch']);
    useNavigation.getState().leave();
    expect(ran).toEqual(['switch', 'switch again']);
  });

  it('Back over unsaved input puts the URL back and asks; Leave then shows where Back went', async () => {
    useNavigation.getState().navigate({ name: 'activity' });
    useNavigation.getState().navigate({ name: 'template-editor' });
    unsaved();
    window.history.back();
    await waitFor(() => useNavigation.getState().pending !== null);
    expect(useNavigation.getState().route).toEqual({ name: 'template-editor' });
    expect(window.location.hash).toBe('#/templates/new');
    useNavigation.getState().leave();
    expect(useNavigation.getState().route).toEqual({ name: 'activity' });
    expect(window.location.hash).toBe('#/activity');
  });

  it('closing or reloading the window asks while input is unsaved, not otherwise', () => {
    const stopGuard = guardUnload(window);
    const close = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(close()).toBe(false);
    unsaved();
    expect(close()).toBe(true);
    stopGuard();
    expect(close()).toBe(false);
  });
});
