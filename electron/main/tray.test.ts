import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { currentFromTotals, type TransferTotals } from '../../shared/ipc/transfer-models';
import type { TrayActionId } from '../core/tray/tray-model';
import { createAppTray } from './tray';

// Electron cannot run here: Tray, Menu and nativeImage are recorded, typed by Electron's declarations.
function setup(platform: NodeJS.Platform = 'linux') {
  const images: Array<{ buffers: Array<{ scale: number; png: Buffer }>; template: boolean }> = [];
  const nativeImage = {
    createFromBuffer(buffer: Buffer, options?: { scaleFactor?: number }) {
      const image = { buffers: [{ scale: options?.scaleFactor ?? 1, png: buffer }], template: false };
      images.push(image);
      const api: Pick<NativeImage, 'addRepresentation' | 'setTemplateImage'> = {
        addRepresentation: (o) => void image.buffers.push({ scale: o.scaleFactor ?? 1, png: o.buffer! }),
        setTemplateImage: (t) => void (image.template = t),
      };
      return Object.assign(api, { image });
    },
  };
  const state = { tooltip: '', image: null as unknown, menu: [] as MenuItemConstructorOptions[], menus: 0, handlers: new Map<string, () => void>(), destroyed: false, constructedWith: null as unknown };
  class FakeTray implements Pick<Tray, 'setToolTip' | 'setContextMenu' | 'setImage' | 'on' | 'destroy'> {
    constructor(image: unknown) {
      state.constructedWith = image;
    }
    setToolTip(t: string) {
      state.tooltip = t;
    }
    setContextMenu(menu: Menu | null) {
      state.menu = (menu as unknown as { template: MenuItemConstructorOptions[] }).template;
      state.menus++;
    }
    setImage(image: NativeImage | string) {
      state.image = image;
    }
    on = ((event: string, handler: () => void) => {
      state.handlers.set(event, handler);
      return this as unknown as Tray;
    }) as Tray['on'];
    destroy() {
      state.destroyed = true;
    }
  }
  const Menu = { buildFromTemplate: (template: MenuItemConstructorOptions[]) => ({ template }) as unknown as Menu };
  const acts: TrayActionId[] = [];
  const tray = createAppTray({ Tray: FakeTray as never, Menu, nativeImage, platform, appName: 'Assemblyline', act: (id) => acts.push(id) }, totals());
  const click = (label: string) => {
    const item = state.menu.find((i) => i.label === label);
    if (!item?.click || item.enabled === false) throw new Error(`no enabled item ${label}`);
    (item.click as () => void)();
  };
  return { tray, state, images, acts, click };
}

const totals = (over: Partial<TransferTotals> = {}): TransferTotals => {
  const t = {
  filesTotal: 0, filesQueued: 0, filesActive: 0, filesDone: 0, filesFailed: 0, filesCanceled: 0, filesSkipped: 0,
  bytesTotal: 0, bytesSent: 0, speedBps: 0, etaSeconds: null, paused: false, waitingUntil: null, effectiveConcurrency: 4, ...over,
  };
  return { ...t, current: over.current ?? currentFromTotals(t) };
};
const sending = totals({ filesTotal: 10, filesQueued: 5, filesActive: 2, filesDone: 3, bytesTotal: 100, bytesSent: 45 });

describe('tray adapter', () => {
  it('shows the queue in the tooltip and menu, and its menu pauses, resumes, shows and quits', () => {
    const { tray, state, acts, click } = setup();
    expect(state.tooltip).toBe('Assemblyline — No transfers running');
    tray.update(sending);
    expect(state.tooltip).toBe('Assemblyline — Uploading 3 of 10 — 45%');
    expect(state.menu.map((i) => i.label ?? i.type)).toEqual(['Show Assemblyline', 'separator', 'Uploading 3 of 10 — 45%', '7 files to send', 'Pause all', 'separator', 'Quit Assemblyline']);
    // Counts are text, not actions.
    expect(state.menu.find((i) => i.label === '7 files to send')).toMatchObject({ enabled: false });
    click('Pause all');
    tray.update({ ...sending, paused: true });
    click('Resume all');
    click('Show Assemblyline');
    click('Quit Assemblyline');
    expect(acts).toEqual(['pause-all', 'resume-all', 'show', 'quit']);
  });

  it('changes the icon with the state, and rebuilds nothing while what it shows is the same', () => {
    const { tray, state, images } = setup();
    const idleImage = state.image;
    tray.update(sending);
    const activeImage = state.image;
    expect(activeImage).not.toBe(idleImage);
    const menus = state.menus;
    tray.update({ ...sending, speedBps: 12_345 });
    expect(state.menus).toBe(menus);
    tray.update(totals());
    // Images are made once per state and reused.
    expect(state.image).toBe(idleImage);
    expect(images).toHaveLength(2);
  });

  it('has 1× and 2× PNGs, template images on macOS only, and shows the window on click off macOS', async () => {
    const linux = setup('linux');
    expect(linux.images[0]!.template).toBe(false);
    const sizes = await Promise.all(linux.images[0]!.buffers.map(async (b) => [b.scale, (await sharp(b.png).metadata()).width]));
    expect(sizes).toEqual([[1, 16], [2, 32]]);
    linux.state.handlers.get('click')!();
    expect(linux.acts).toEqual(['show']);
    const mac = setup('darwin');
    expect(mac.images[0]!.template).toBe(true);
    // macOS opens the menu on click itself.
    expect(mac.state.handlers.has('click')).toBe(false);
  });

  it('is gone once destroyed, and later updates are ignored', () => {
    const { tray, state } = setup();
    tray.destroy();
    expect(state.destroyed).toBe(true);
    tray.update(sending);
    expect(state.tooltip).toBe('Assemblyline — No transfers running');
  });
});
