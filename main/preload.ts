// The sandboxed preload: exposes one minimal object, and only the `tidings:` channels.
import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';

contextBridge.exposeInMainWorld('tidings', {
  invoke: (method: string, args: unknown[]): Promise<unknown> =>
    ipcRenderer.invoke('tidings:invoke', method, args),
  on: (event: string, listener: (payload: unknown) => void): (() => void) => {
    const handler = (_e: IpcRendererEvent, name: string, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on('tidings:event', handler);
    return () => ipcRenderer.removeListener('tidings:event', handler);
  },
});
