// The sandboxed preload: exposes one minimal object, and only the `tidings:` channels.
import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';

type Listener = (payload: unknown) => void;

/**
 * Requests main sends on its own (a feed: link at launch, a notification click) may arrive before
 * the page has subscribed: they wait here for the first listener instead of being lost.
 */
const HELD_UNTIL_HEARD = new Set([
  'shell.subscribeRequest',
  'shell.importRequest',
  'shell.openItem',
  'shell.command',
]);
const MAX_HELD = 50;
const held: { name: string; payload: unknown }[] = [];
const listeners = new Map<string, Set<Listener>>();

ipcRenderer.on('tidings:event', (_e: IpcRendererEvent, name: string, payload: unknown) => {
  const set = listeners.get(name);
  if (set && set.size > 0) {
    for (const listener of set) listener(payload);
  } else if (HELD_UNTIL_HEARD.has(name) && held.length < MAX_HELD) {
    held.push({ name, payload });
  }
});

contextBridge.exposeInMainWorld('tidings', {
  invoke: (method: string, args: unknown[]): Promise<unknown> =>
    ipcRenderer.invoke('tidings:invoke', method, args),
  on: (event: string, listener: Listener): (() => void) => {
    let set = listeners.get(event);
    if (!set) {
      set = new Set();
      listeners.set(event, set);
    }
    set.add(listener);
    // Replay what waited for this event, after the caller has its unsubscribe function.
    const waiting = held.filter((h) => h.name === event);
    if (waiting.length > 0) {
      for (const h of waiting) held.splice(held.indexOf(h), 1);
      queueMicrotask(() => {
        for (const h of waiting) {
          // Unsubscribed meanwhile (React's StrictMode mounts twice): keep it for the next one.
          if (set.has(listener)) listener(h.payload);
          else held.push(h);
        }
      });
    }
    return () => {
      set.delete(listener);
    };
  },
});
