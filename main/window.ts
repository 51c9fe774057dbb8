/**
 * The main window: restored onto a screen that still exists, locked down (contextIsolation,
 * sandbox, no node, no webview), hidden to the tray on close when that is the preference,
 * asking before a reload or a close loses edits not saved, and remembering its place as it moves. The unread count is in its title, so main owns the title.
 */
import { BrowserWindow, dialog, screen } from 'electron';
import type { Prefs } from './prefs.ts';
import { restoreBounds } from './window-bounds.ts';

export interface MainWindowOptions {
  prefs: Prefs;
  preload: string;
  entryUrl: string;
  icon: string;
  show: boolean;
  title: string;
  /** 'hide' keeps the app running in the tray; 'close' lets the window go. */
  onCloseRequested(): 'hide' | 'close';
  onHidden(): void;
}

export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const saved = opts.prefs.get('window');
  const bounds = restoreBounds(saved, orderedWorkAreas());
  const win = new BrowserWindow({
    ...bounds,
    minWidth: 480,
    minHeight: 400,
    title: opts.title,
    icon: opts.icon,
    show: false,
    webPreferences: {
      preload: opts.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  });
  if (saved.maximized) win.maximize();

  let saveTimer: NodeJS.Timeout | null = null;
  const save = () => {
    if (win.isDestroyed() || win.isMinimized() || win.isFullScreen()) return;
    opts.prefs.set('window', { ...win.getNormalBounds(), maximized: win.isMaximized() });
  };
  const saveSoon = () => {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = setTimeout(save, 500);
  };
  win.on('resize', saveSoon);
  win.on('move', saveSoon);
  win.on('close', (event) => {
    save();
    if (opts.onCloseRequested() === 'hide') {
      event.preventDefault();
      win.hide();
      opts.onHidden();
    }
  });
  win.on('closed', () => {
    if (saveTimer) clearTimeout(saveTimer);
  });
  // The page asks before a reload or a close takes edits not saved (Settings' beforeunload).
  // Electron only cancels the unload, without a word: ask, as a browser would.
  win.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(win, {
      type: 'question',
      buttons: ['Leave without saving', 'Keep editing'],
      defaultId: 1,
      cancelId: 1,
      title: 'Leave without saving?',
      message: 'Your changes to Settings are not saved yet.',
      detail: 'Leave, and they are lost; keep editing, and Save keeps them.',
    });
    // preventDefault here means "ignore the page's beforeunload": the page goes.
    if (choice === 0) event.preventDefault();
  });
  // The page's <title> would replace the unread count main puts there.
  win.on('page-title-updated', (event) => event.preventDefault());
  if (opts.show) win.once('ready-to-show', () => win.show());
  void win.loadURL(opts.entryUrl);
  return win;
}

/** Work areas with the primary screen first (restoreBounds centres on the first). */
function orderedWorkAreas() {
  const primary = screen.getPrimaryDisplay();
  const others = screen.getAllDisplays().filter((d) => d.id !== primary.id);
  return [primary, ...others].map((d) => d.workArea);
}

export function showWindow(win: BrowserWindow): void {
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}
