/**
 * Electron's security checklist, applied (the decisions are in policy.ts): every webContents is
 * denied webviews, new windows and navigation away from the app's own page (links go to the
 * system browser when they are http, https or mailto); the session refuses every permission and
 * device; pages carry the strict CSP. Window options (contextIsolation, sandbox, no node) are set
 * where the window is made (window.ts); the sandbox is on for every renderer (app.enableSandbox).
 */
import { app, type Session, shell } from 'electron';
import { contentSecurityPolicy } from '../src/browser-mode/static-files.ts';
import { decideNavigation, decideNewWindow, permissionAllowed } from './policy.ts';

export function applySessionPolicy(session: Session): void {
  session.setPermissionRequestHandler((_wc, permission, callback) => callback(permissionAllowed(permission)));
  session.setPermissionCheckHandler((_wc, permission) => permissionAllowed(permission));
  session.setDevicePermissionHandler(() => false);
  // The app's files carry the CSP themselves (app:// answers with it); this covers the dev server.
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy()] },
    });
  });
}

export function guardAllWebContents(isAppUrl: (url: string) => boolean): void {
  const openExternal = (url: string | null) => {
    if (url) void shell.openExternal(url);
  };
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      openExternal(decideNewWindow(url).openExternal);
      return { action: 'deny' };
    });
    contents.on('will-frame-navigate', (details) => {
      const decision = decideNavigation(details.url, isAppUrl);
      if (decision.allow) return;
      details.preventDefault();
      // A click on a link in the page: the person meant to follow it, in their browser.
      if (details.isMainFrame) openExternal(decision.openExternal);
    });
    contents.on('will-redirect', (details) => {
      if (!decideNavigation(details.url, isAppUrl).allow) details.preventDefault();
    });
  });
}
