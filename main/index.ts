/**
 * Electron main: owns the window and runs the core (src/app). The renderer reaches the core only
 * through the preload's `window.tidings` (contextIsolation + sandbox, no nodeIntegration).
 */
import { join } from 'node:path';
import { app, BrowserWindow, Menu, session, shell } from 'electron';
import Store from 'electron-store';
import { createTidings, type Tidings } from '../src/app/tidings.ts';
import { contentSecurityPolicy } from '../src/browser-mode/static-files.ts';
import { bridgeApi } from './ipc.ts';

interface ShellPrefs {
  bounds: { width: number; height: number; x?: number; y?: number };
}

const prefs = new Store<ShellPrefs>({ defaults: { bounds: { width: 1200, height: 800 } } });
let core: Tidings | null = null;

const rendererUrl = process.env.ELECTRON_RENDERER_URL;
const indexFile = join(__dirname, '../renderer/index.html');
const isOurs = (url: string) =>
  rendererUrl
    ? url.startsWith(rendererUrl)
    : url.startsWith('file://') && decodeURI(url).includes('/renderer/index.html');

function createWindow(tidings: Tidings): void {
  const win = new BrowserWindow({
    ...prefs.get('bounds'),
    title: 'Tidings',
    show: false,
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
    },
  });
  const unbridge = bridgeApi(tidings, win, isOurs);
  win.once('ready-to-show', () => win.show());
  win.on('close', () => prefs.set('bounds', win.getBounds()));
  win.on('closed', unbridge);

  // External links open in the system browser; the window itself never navigates away.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (isOurs(url)) return;
    event.preventDefault();
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
  });

  if (rendererUrl) void win.loadURL(rendererUrl);
  else void win.loadFile(indexFile);
}

app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy()] },
    });
  });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate([
      { role: process.platform === 'darwin' ? 'appMenu' : 'fileMenu' },
      { role: 'editMenu' },
      { role: 'viewMenu' },
      { role: 'windowMenu' },
    ]),
  );
  // Real-time reading on: the receiver on 127.0.0.1, reachable through the tunnel (settings).
  core = createTidings({ dataDir: join(app.getPath('userData'), 'data'), realtime: {} });
  core.start();
  createWindow(core);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0 && core) createWindow(core);
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

let stopping = false;
app.on('will-quit', (event) => {
  if (!core || stopping) return;
  stopping = true;
  event.preventDefault();
  void core.stop().finally(() => app.quit());
});
