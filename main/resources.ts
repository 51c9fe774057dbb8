/**
 * Files the running app reads from resources/runtime (tray icons, badges, the window icon, the
 * suggested subscriptions): next to the app in development, in the package's resources folder
 * (electron-builder extraResources, outside the asar) when installed.
 */
import { join } from 'node:path';
import { app } from 'electron';

export function runtimeResource(...parts: string[]): string {
  return app.isPackaged
    ? join(process.resourcesPath, 'runtime', ...parts)
    : join(app.getAppPath(), 'resources', 'runtime', ...parts);
}
