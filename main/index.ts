/**
 * Electron main: composes the shell. Every decision lives in a plain, tested module (launch-args,
 * launch-queue, window-bounds, policy, tray-model, app-menu-model, notify-batcher, shutdown,
 * app-stop, prefs, autostart); this file wires them to Electron and to the core (src/app).
 * The renderer reaches the core only through the preload's `window.tidings`.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  app,
  type BrowserWindow,
  dialog,
  Menu,
  nativeImage,
  nativeTheme,
  powerMonitor,
  session,
  shell,
} from 'electron';
import Store from 'electron-store';
import type { EventName, TidingsEvents } from '../src/app/api.ts';
import { createTidings, type Tidings } from '../src/app/tidings.ts';
import { PROJECT_URL } from '../src/app/version.ts';
import { toElectronMenu } from './app-menu.ts';
import { appMenu, type ShellAction } from './app-menu-model.ts';
import { registerAppScheme, serveAppFiles } from './app-protocol.ts';
import { createAppStop } from './app-stop.ts';
import { linuxAutostartFile, loginCommand, setLinuxAutostart, startsHidden } from './autostart.ts';
import { bridgeApi, sendEvent } from './ipc.ts';
import { fromPositional, type LaunchRequest } from './launch-args.ts';
import { createLaunchQueue } from './launch-queue.ts';
import { type ShellNotifications, startNotifications } from './notifications.ts';
import { readOpmlFile } from './opml-file.ts';
import { APP_ENTRY_URL, appUrlMatcher } from './policy.ts';
import { Prefs } from './prefs.ts';
import { createRealtimePause } from './realtime-pause.ts';
import { runtimeResource } from './resources.ts';
import { applySessionPolicy, guardAllWebContents } from './security.ts';
import {
  closeAction,
  overlayBadgeFile,
  quitWhenAllClosed,
  type ShellState,
  UnreadCounter,
  windowTitle,
} from './shell-state.ts';
import { installSignalHandlers } from './shutdown.ts';
import { createShellTray, type ShellTray } from './tray.ts';
import { type TrayAction, trayView } from './tray-model.ts';
import { createMainWindow, showWindow } from './window.ts';

const platform = process.platform;
// `electron .` (development, tests) puts the app folder after the executable in argv.
const ARGV_SKIP = process.defaultApp ? 2 : 1;
const devServerUrl = process.env.ELECTRON_RENDERER_URL ?? null;
const isAppUrl = appUrlMatcher(devServerUrl);

app.enableSandbox();
registerAppScheme();
app.setAppUserModelId('app.tidings.desktop');

if (!app.requestSingleInstanceLock()) {
  // Another Tidings runs: it received our argv ('second-instance') and comes forward itself.
  app.exit(0);
} else {
  runShell();
}

function runShell(): void {
  const prefs = new Prefs(new Store({ name: 'shell-preferences', clearInvalidConfig: true }), platform);
  const unread = new UnreadCounter();
  const state: ShellState = {
    unread: 0,
    refreshing: 0,
    realtimePaused: false,
    realtimeAvailable: false,
    windowVisible: false,
    prefs: pickPrefs(prefs),
  };
  let win: BrowserWindow | null = null;
  let tray: ShellTray | null = null;
  let core: Tidings | null = null;
  let quitting = false;

  const emit = <E extends EventName>(event: E, payload: TidingsEvents[E]) => {
    if (win) sendEvent(win, event, payload);
  };

  const launches = createLaunchQueue({
    skip: ARGV_SKIP,
    focus: () => bringForward(),
    deliver: (request) => void deliver(request),
  });
  async function deliver(request: LaunchRequest): Promise<void> {
    if (request.kind === 'subscribe') emit('shell.subscribeRequest', { url: request.url });
    else if (request.kind === 'invalid') emit('notice', { level: 'error', message: request.reason });
    else {
      const file = await readOpmlFile(request.path);
      if (file.ok)
        emit('shell.importRequest', { fileName: file.fileName, text: file.text, suggested: false });
      else emit('notice', { level: 'error', message: file.message });
    }
  }

  // Before 'ready': macOS delivers feed: links and opened files as events, even at launch.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    const request = fromPositional(url, process.cwd());
    if (request) launches.add([request]);
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    const request = fromPositional(path, process.cwd());
    if (request) launches.add([request]);
  });
  app.on('second-instance', (_event, argv, workingDirectory) =>
    launches.secondInstance(argv, workingDirectory),
  );
  launches.fromOwnArgv(process.argv, process.cwd());

  function bringForward(): void {
    if (!core) return;
    if (!win || win.isDestroyed()) win = openWindow(true);
    if (platform === 'darwin') void app.dock?.show();
    showWindow(win);
    setState({ windowVisible: true });
  }

  function openWindow(show: boolean): BrowserWindow {
    const created = createMainWindow({
      prefs,
      preload: join(__dirname, '../preload/index.js'),
      entryUrl: devServerUrl ?? APP_ENTRY_URL,
      icon: runtimeResource('icon.png'),
      show,
      title: windowTitle(state.unread),
      onCloseRequested: () => closeAction({ closeToTray: prefs.get('closeToTray'), quitting }),
      onHidden: () => {
        setState({ windowVisible: false });
        if (platform === 'darwin') app.dock?.hide();
        hintOnce();
      },
    });
    const unbridge = bridgeApi(core!, created, isAppUrl);
    created.webContents.on('did-start-loading', () => launches.notReady());
    created.webContents.on('did-finish-load', () => {
      launches.ready();
      void offerSuggestedOnce();
    });
    created.on('show', () => setState({ windowVisible: true }));
    created.on('hide', () => setState({ windowVisible: false }));
    // Windows logs off or shuts down: the window gets this, not the app.
    created.on('session-end', () => void stopper?.request('the session ends'));
    created.on('closed', () => {
      unbridge();
      launches.notReady();
      if (win === created) win = null;
      setState({ windowVisible: false });
    });
    return created;
  }

  /** The first time the window hides to the tray, say that Tidings keeps running there. */
  function hintOnce(): void {
    if (prefs.get('trayHintShown')) return;
    prefs.set('trayHintShown', true);
    notifications?.show({
      title: 'Tidings is still running',
      body: 'It keeps reading in the background. Open it or quit from its icon in the tray.',
      target: { feedId: null, itemId: null },
    });
  }

  /** First run: offer the suggested subscriptions (the page asks; nothing is added silently). */
  async function offerSuggestedOnce(): Promise<void> {
    if (prefs.get('suggestedOffered') || !core) return;
    prefs.set('suggestedOffered', true);
    if ((await core.listFeeds()).length > 0) return;
    try {
      const text = readFileSync(runtimeResource('suggested-feeds.opml'), 'utf8');
      emit('shell.importRequest', { fileName: 'Suggested feeds', text, suggested: true });
    } catch {
      // A build without the list: the welcome page still explains how to add feeds.
    }
  }

  // --- state -> tray, title, badge, menu ---------------------------------------------------
  let renderTimer: NodeJS.Timeout | null = null;
  let menuKey = '';
  function setState(patch: Partial<ShellState>): void {
    Object.assign(state, patch);
    if (!renderTimer) renderTimer = setTimeout(render, 50);
  }
  function render(): void {
    renderTimer = null;
    tray?.update(trayView(state, platform));
    if (win && !win.isDestroyed()) {
      win.setTitle(windowTitle(state.unread));
      if (platform === 'win32') {
        const badge = overlayBadgeFile(state.unread);
        win.setOverlayIcon(
          badge ? nativeImage.createFromPath(runtimeResource('badges', badge)) : null,
          badge ? `${state.unread} unread` : '',
        );
      }
    }
    if (platform !== 'win32') app.setBadgeCount(state.unread);
    const key = JSON.stringify([state.prefs, state.realtimePaused]);
    if (key !== menuKey) {
      menuKey = key;
      Menu.setApplicationMenu(
        toElectronMenu(appMenu(state, { platform, dev: !app.isPackaged }), {
          command: (command) => {
            bringForward();
            emit('shell.command', { command });
          },
          action: (action) => void onMenuAction(action),
        }),
      );
    }
  }

  // --- actions ------------------------------------------------------------------------------
  const pause = () => (core ? createRealtimePause(core) : null);
  let realtimePause: ReturnType<typeof pause> = null;

  async function onMenuAction(action: ShellAction): Promise<void> {
    if (typeof action === 'object') {
      prefs.set('theme', action.theme);
      nativeTheme.themeSource = action.theme;
    } else if (action === 'toggleCloseToTray') {
      prefs.set('closeToTray', !prefs.get('closeToTray'));
    } else if (action === 'toggleStartAtLogin') {
      await applyStartAtLogin(!prefs.get('startAtLogin'));
    } else if (action === 'toggleNotifyPostAnswers') {
      prefs.set('notifyPostAnswers', !prefs.get('notifyPostAnswers'));
    } else if (action === 'toggleRealtimePause') {
      await togglePause();
    } else if (action === 'openWebsite') {
      void shell.openExternal(PROJECT_URL);
    } else if (action === 'importOpml') {
      const picked = await dialog.showOpenDialog({
        title: 'Import subscriptions',
        properties: ['openFile'],
        filters: [{ name: 'OPML subscription lists', extensions: ['opml', 'xml'] }],
      });
      const path = picked.filePaths[0];
      if (!picked.canceled && path) launches.add([{ kind: 'import', path }]);
    }
    setState({ prefs: pickPrefs(prefs) });
  }

  async function togglePause(): Promise<void> {
    if (!realtimePause) return;
    await realtimePause.set(!realtimePause.paused());
    setState({ realtimePaused: realtimePause.paused(), realtimeAvailable: await realtimePause.available() });
  }

  async function applyStartAtLogin(enabled: boolean): Promise<void> {
    const command = loginCommand({
      execPath: process.execPath,
      appImage: process.env.APPIMAGE,
      devAppPath: process.defaultApp ? app.getAppPath() : null,
    });
    try {
      if (platform === 'linux') {
        await setLinuxAutostart(linuxAutostartFile(process.env, homedir()), enabled, command);
      } else {
        app.setLoginItemSettings({ openAtLogin: enabled, path: command[0], args: command.slice(1) });
      }
      prefs.set('startAtLogin', enabled);
    } catch (err) {
      emit('notice', {
        level: 'error',
        message: `Could not change the login start: ${(err as Error).message}`,
      });
    }
  }

  // --- the core and its events ----------------------------------------------------------------
  let notifications: ShellNotifications | null = null;
  let stopper: ReturnType<typeof createAppStop> | null = null;

  async function reloadFeeds(): Promise<void> {
    if (!core) return;
    const feeds = await core.listFeeds();
    unread.setAll(feeds);
    notifications?.setFeeds(feeds);
    setState({
      unread: unread.total(),
      realtimePaused: realtimePause?.paused() ?? false,
      realtimeAvailable: (await realtimePause?.available()) ?? false,
    });
  }

  app.whenReady().then(async () => {
    applySessionPolicy(session.defaultSession);
    guardAllWebContents(isAppUrl);
    serveAppFiles(join(__dirname, '../renderer'));
    nativeTheme.themeSource = prefs.get('theme');

    // Real-time reading on: the receiver on 127.0.0.1, reachable through the tunnel (settings).
    core = createTidings({ dataDir: join(app.getPath('userData'), 'data'), realtime: {} });
    realtimePause = pause();
    const running = core;
    stopper = createAppStop({
      core: running,
      log: (line) => console.log(`tidings: ${line}`),
      exit: (code) => app.exit(code),
      beforeCore: () => {
        notifications?.dispose();
        tray?.destroy();
        tray = null;
        for (const w of [win]) if (w && !w.isDestroyed()) w.destroy();
      },
    });
    installSignalHandlers(process, stopper);
    powerMonitor.on('shutdown', (...args: unknown[]) => {
      // Ask the system to wait while the databases close.
      (args[0] as { preventDefault?: () => void } | undefined)?.preventDefault?.();
      void stopper?.request('the system shuts down');
    });

    notifications = startNotifications({
      core: running,
      icon: runtimeResource('icon.png'),
      quiet: () => !!win && !win.isDestroyed() && win.isVisible() && win.isFocused(),
      postAnswersWanted: () => prefs.get('notifyPostAnswers'),
      onClick: (target) => {
        bringForward();
        emit('shell.openItem', target);
      },
    });
    running.onAny((event, payload) => {
      if (event === 'feed.status') {
        const feed = payload as TidingsEvents['feed.status'];
        unread.update(feed);
        notifications?.feedChanged(feed);
        setState({ unread: unread.total() });
      } else if (event === 'feeds.changed') {
        void reloadFeeds();
      } else if (event === 'river.changed') {
        const { feedId, newItems } = payload as TidingsEvents['river.changed'];
        notifications?.riverChanged(feedId, newItems);
      } else if (event === 'progress') {
        const p = payload as TidingsEvents['progress'];
        setState({ refreshing: p.active + p.queued });
      } else if (event === 'post.changed') {
        notifications?.postChanged(payload as TidingsEvents['post.changed']);
      }
    });
    await reloadFeeds();
    running.start();

    const onTrayAction = (action: TrayAction) => {
      if (action === 'toggleWindow') {
        if (win?.isVisible()) win.hide();
        else bringForward();
      } else if (action === 'refreshAll') void running.refresh(null);
      else if (action === 'newPost') {
        bringForward();
        emit('shell.command', { command: 'composer.open' });
      } else if (action === 'toggleRealtimePause') void togglePause();
      else if (action === 'quit') app.quit();
    };
    tray = createShellTray({
      iconPath: (file) => runtimeResource('tray', file),
      onClick: () => onTrayAction('toggleWindow'),
      onAction: onTrayAction,
    });
    claimFeedLinks();
    if (process.env.TIDINGS_E2E === '1') {
      // For e2e/electron.spec.ts only: a tray icon cannot be clicked from a test, nor a
      // notification; these reach the same handlers a click would.
      Object.assign(globalThis, {
        __tidingsShell: {
          tray: () => trayView(state, platform),
          trayAction: onTrayAction,
          notifications: () => notifications?.shown() ?? [],
          clickNotification: (i: number) => notifications?.click(i),
          optInFeeds: (ids: number[]) => notifications?.optIn(ids),
          stopState: () => stopper?.state,
        },
      });
    }

    const hidden = startsHidden(process.argv) && prefs.get('closeToTray');
    win = openWindow(!hidden);
    setState({ windowVisible: !hidden });
    render();
  });

  app.on('activate', () => bringForward());
  app.on('window-all-closed', () => {
    // Hidden windows are not closed: this runs only when the window really closed.
    if (quitWhenAllClosed(platform)) app.quit();
  });
  app.on('before-quit', (event) => {
    quitting = true;
    if (!stopper || stopper.state === 'stopped') return;
    event.preventDefault();
    void stopper.request('quit');
  });
}

/**
 * feed: and feeds: open Tidings when no other app handles them (the installers register them too;
 * this covers a first run without one). Never taken from another feed reader the person chose.
 */
function claimFeedLinks(): void {
  if (!app.isPackaged || platform === 'linux') return;
  for (const scheme of ['feed', 'feeds']) {
    if (!app.getApplicationNameForProtocol(`${scheme}://example.com/`))
      app.setAsDefaultProtocolClient(scheme);
  }
}

function pickPrefs(prefs: Prefs): ShellState['prefs'] {
  const all = prefs.all();
  return {
    closeToTray: all.closeToTray,
    startAtLogin: all.startAtLogin,
    notifyPostAnswers: all.notifyPostAnswers,
    theme: all.theme,
  };
}
