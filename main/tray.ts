/** The tray icon: main/tray-model.ts decides what it shows; this puts it on screen. */
import { Menu, type MenuItemConstructorOptions, nativeImage, Tray } from 'electron';
import type { TrayAction, TrayView } from './tray-model.ts';

export interface ShellTray {
  update(view: TrayView): void;
  destroy(): void;
}

export function createShellTray(opts: {
  iconPath(file: string): string;
  onAction(action: TrayAction): void;
  /** A click on the icon itself (Windows, most Linux trays): show or hide the window. */
  onClick(): void;
}): ShellTray {
  let iconFile = '';
  const tray = new Tray(nativeImage.createFromPath(opts.iconPath('tray.png')));
  tray.on('click', () => opts.onClick());
  return {
    update(view) {
      if (tray.isDestroyed()) return;
      if (view.icon !== iconFile) {
        iconFile = view.icon;
        const image = nativeImage.createFromPath(opts.iconPath(view.icon));
        if (view.icon.endsWith('Template.png')) image.setTemplateImage(true);
        tray.setImage(image);
      }
      tray.setToolTip(view.tooltip);
      if (process.platform === 'darwin') tray.setTitle(view.title);
      const items: MenuItemConstructorOptions[] = view.menu.map((item) =>
        item.type === 'separator'
          ? { type: 'separator' }
          : {
              type: item.type,
              label: item.label,
              enabled: item.enabled,
              ...(item.checked !== undefined ? { checked: item.checked } : {}),
              ...(item.accelerator ? { accelerator: item.accelerator, registerAccelerator: false } : {}),
              ...(item.action ? { click: () => opts.onAction(item.action!) } : {}),
            },
      );
      tray.setContextMenu(Menu.buildFromTemplate(items));
    },
    destroy() {
      if (!tray.isDestroyed()) tray.destroy();
    },
  };
}
