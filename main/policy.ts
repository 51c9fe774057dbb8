/**
 * The window's security policy as plain decisions (Electron's security checklist): the window shows
 * only the app's own files, never navigates away, opens no windows of its own, hands links to the
 * system browser only when they are http, https or mailto, and every permission request is refused.
 * main/security.ts applies these to every webContents and to the session.
 */

/** The app's own files are served on this privileged scheme (checklist: prefer a custom protocol to file://). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'tidings';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** Schemes a link may hand to the operating system (shell.openExternal). */
const EXTERNAL_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * A predicate for "this URL is the app's own page": app://tidings/..., or in development the
 * electron-vite dev server's origin (ELECTRON_RENDERER_URL).
 */
export function appUrlMatcher(devServerUrl?: string | null): (url: string) => boolean {
  const devOrigin = devServerUrl ? originOf(devServerUrl) : null;
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (devOrigin) return parsed.origin === devOrigin;
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  };
}

/** The URL to open in the system browser, or null when it must not leave the app at all. */
export function externalTarget(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!EXTERNAL_SCHEMES.has(parsed.protocol)) return null;
  if (parsed.protocol !== 'mailto:' && !parsed.hostname) return null;
  return parsed.href;
}

export type NavigationDecision = { allow: true } | { allow: false; openExternal: string | null };

/**
 * will-navigate / will-redirect / window.open: the window may only move within the app's own page
 * (a reload, a hash change); everything else is refused, and handed to the system browser when it
 * is a link a person could have meant to follow.
 */
export function decideNavigation(url: string, isAppUrl: (url: string) => boolean): NavigationDecision {
  if (isAppUrl(url)) return { allow: true };
  return { allow: false, openExternal: externalTarget(url) };
}

/** window.open and target=_blank never make a window: the link (if fit) opens in the browser. */
export function decideNewWindow(url: string): { openExternal: string | null } {
  return { openExternal: externalTarget(url) };
}

/**
 * Every permission (notifications from the page, camera, geolocation, clipboard reads, midi...)
 * is refused: the renderer needs none; main shows notifications itself.
 */
export function permissionAllowed(_permission: string): boolean {
  return false;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
