/**
 * The TidingsApi over IPC: one generic handler for every method in API_METHODS (no channel per
 * command) and one event channel. Calls are accepted only from our own window's main frame.
 * Main's own events (shell.*) travel on the same event channel as the core's.
 */
import { type BrowserWindow, ipcMain, type WebFrameMain } from 'electron';
import { API_METHODS, type ApiMethod, type EventName, type TidingsEvents } from '../src/app/api.ts';
import { argsProblem } from '../src/app/api-args.ts';
import type { Tidings } from '../src/app/tidings.ts';

const METHODS = new Set<string>(API_METHODS);
export const EVENT_CHANNEL = 'tidings:event';

export function bridgeApi(
  app: Tidings,
  window: BrowserWindow,
  trustedUrl: (url: string) => boolean,
): () => void {
  ipcMain.handle('tidings:invoke', async (event, method: unknown, args: unknown) => {
    if (!isTrusted(event.senderFrame, window, trustedUrl))
      throw new Error('Refused: not the Tidings window.');
    if (typeof method !== 'string' || !METHODS.has(method))
      throw new Error(`Unknown command ${String(method)}.`);
    // The same shape check as browser mode's (src/app/api-args.ts): a readable refusal, never a
    // crash inside the core on a field that is not there.
    const list = Array.isArray(args) ? args : [];
    const problem = argsProblem(method as ApiMethod, list);
    if (problem) throw new Error(`Refused: ${problem}`);
    const fn = app[method as ApiMethod] as (...a: unknown[]) => Promise<unknown>;
    return fn.apply(app, list);
  });
  const stopEvents = app.onAny((event, payload) => sendEvent(window, event, payload));
  return () => {
    stopEvents();
    ipcMain.removeHandler('tidings:invoke');
  };
}

/** Sends one event to the window's page (the core's, forwarded, or main's own shell.* ones). */
export function sendEvent<E extends EventName>(
  window: BrowserWindow,
  event: E,
  payload: TidingsEvents[E],
): void {
  if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, event, payload);
}

function isTrusted(
  frame: WebFrameMain | null,
  window: BrowserWindow,
  trustedUrl: (url: string) => boolean,
): boolean {
  return !!frame && frame === window.webContents.mainFrame && trustedUrl(frame.url);
}
