/**
 * Electron transport: the preload's `window.tidings` bridge carries every command and event; this
 * file only adapts it to the TidingsClient shape. IPC has no connection to lose, so it is 'open'.
 */
import type { EventName, TidingsEvents } from '../../../src/app/api';
import { ApiError } from './api-error';
import { createApiProxy } from './proxy';
import type { ConnectionState, RendererClient, TidingsBridge } from './types';

export function createIpcClient(bridge: TidingsBridge): RendererClient {
  const api = createApiProxy(async (method, args) => {
    try {
      return await bridge.invoke(method, args);
    } catch (err) {
      throw fromIpcError(err);
    }
  });
  const subscriptions = new Set<() => void>();
  return {
    ...api,
    transport: 'electron',
    on<E extends EventName>(event: E, listener: (payload: TidingsEvents[E]) => void) {
      const off = bridge.on(event, listener as (payload: unknown) => void);
      subscriptions.add(off);
      return () => {
        subscriptions.delete(off);
        off();
      };
    },
    connection: (): ConnectionState => 'open',
    onConnection: () => () => {},
    close() {
      for (const off of subscriptions) off();
      subscriptions.clear();
    },
  };
}

/**
 * Electron rewrites errors thrown in main as "Error invoking remote method 'tidings:x': Error: why";
 * keep the why, and the code if main put one in front ("[code] why").
 */
export function fromIpcError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const raw = err instanceof Error ? err.message : String(err);
  const message = raw.replace(/^Error invoking remote method '[^']*': (?:\w*Error: )?/, '');
  const coded = /^\[([\w.-]+)\] (.*)$/s.exec(message);
  if (coded) return new ApiError(coded[1]!, coded[2]!);
  const code = typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : 'ipc';
  return new ApiError(code, message);
}
