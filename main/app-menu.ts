/** The application menu: app-menu-model.ts decides it; this builds Electron's from it. */
import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { CommandId } from '../src/app/shortcuts.ts';
import type { MenuSpec, ShellAction } from './app-menu-model.ts';

export interface MenuHandlers {
  command(command: CommandId): void;
  action(action: ShellAction): void;
}

export function toElectronMenu(specs: readonly MenuSpec[], handlers: MenuHandlers): Menu {
  return Menu.buildFromTemplate(specs.map((s) => toItem(s, handlers)));
}

function toItem(spec: MenuSpec, handlers: MenuHandlers): MenuItemConstructorOptions {
  if ('type' in spec && spec.type === 'separator') return { type: 'separator' };
  if ('submenu' in spec) {
    return {
      label: spec.label,
      ...(spec.role ? { role: spec.role as MenuItemConstructorOptions['role'] } : {}),
      submenu: spec.submenu.map((s) => toItem(s, handlers)),
    };
  }
  if ('command' in spec) {
    return {
      label: spec.label,
      ...(spec.accelerator ? { accelerator: spec.accelerator } : {}),
      registerAccelerator: spec.registerAccelerator,
      click: () => handlers.command(spec.command),
    };
  }
  if ('action' in spec) {
    return {
      label: spec.label,
      ...(spec.type ? { type: spec.type } : {}),
      ...(spec.checked !== undefined ? { checked: spec.checked } : {}),
      click: () => handlers.action(spec.action),
    };
  }
  return { role: spec.role as MenuItemConstructorOptions['role'] };
}
