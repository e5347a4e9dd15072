import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import type { TransferTotals } from '../../shared/ipc/transfer-models';
import { trayIconPng } from '../core/tray/tray-icon';
import { trayViewOf, type TrayActionId, type TrayIconVariant, type TrayItem } from '../core/tray/tray-model';

type TrayLike = Pick<Tray, 'setToolTip' | 'setContextMenu' | 'setImage' | 'on' | 'destroy'>;
type ImageLike = Pick<NativeImage, 'addRepresentation' | 'setTemplateImage'>;

export interface AppTrayDeps {
  /** Electron's Tray class (`new Tray(image)`). */
  readonly Tray: new (image: never) => TrayLike;
  readonly Menu: { buildFromTemplate(template: MenuItemConstructorOptions[]): Menu };
  /** Electron's nativeImage module. */
  readonly nativeImage: { createFromBuffer(buffer: Buffer, options?: { scaleFactor?: number }): ImageLike };
  readonly platform: NodeJS.Platform;
  readonly appName: string;
  /** What a menu item (or, off macOS, a click on the icon: Show) asks for. */
  readonly act: (id: TrayActionId) => void;
}

export interface AppTray {
  /** The queue changed: tooltip, icon and menu follow (rebuilt only when what they show changed). */
  update(totals: TransferTotals): void;
  destroy(): void;
}

/** The tray menu in Electron's template type (pure). Info lines are disabled items: text, not actions. */
export function trayMenuTemplate(items: readonly TrayItem[], act: (id: TrayActionId) => void): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    if (item.kind === 'separator') return { type: 'separator' };
    if (item.kind === 'info') return { label: item.label, enabled: false };
    return { label: item.label, enabled: item.enabled, click: () => act(item.id) };
  });
}

/**
 * The tray/menu-bar icon of background mode (created only while "Keep running in the background" is on).
 * Images are drawn in code at 16 px with a 2× representation; on macOS they are template images (black,
 * tinted by the menu bar for light and dark). macOS opens the menu on click; elsewhere a click shows the
 * window and the menu is on the right click.
 */
export function createAppTray(deps: AppTrayDeps, initial: TransferTotals): AppTray {
  const mac = deps.platform === 'darwin';
  const images = new Map<TrayIconVariant, ImageLike>();
  const imageOf = (variant: TrayIconVariant): ImageLike => {
    let image = images.get(variant);
    if (!image) {
      image = deps.nativeImage.createFromBuffer(trayIconPng(variant, 16, mac), { scaleFactor: 1 });
      image.addRepresentation({ scaleFactor: 2, buffer: trayIconPng(variant, 32, mac) });
      if (mac) image.setTemplateImage(true);
      images.set(variant, image);
    }
    return image;
  };
  const first = trayViewOf(initial, deps.appName);
  const tray = new deps.Tray(imageOf(first.icon) as never);
  if (!mac) tray.on('click', () => deps.act('show'));
  let shown = '';
  let destroyed = false;
  const apply = (totals: TransferTotals) => {
    const view = trayViewOf(totals, deps.appName);
    const key = JSON.stringify(view);
    if (destroyed || key === shown) return;
    shown = key;
    tray.setImage(imageOf(view.icon) as never);
    tray.setToolTip(view.tooltip);
    tray.setContextMenu(deps.Menu.buildFromTemplate(trayMenuTemplate(view.items, deps.act)));
  };
  apply(initial);
  return {
    update: apply,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      tray.destroy();
    },
  };
}
