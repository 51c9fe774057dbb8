import type { TidingsClient, Unsubscribe } from '../../../src/app/api';

/**
 * The event stream's health, as the UI shows it. Electron's IPC is always 'open'; browser mode
 * goes 'connecting' -> 'open', and 'reconnecting' while the WebSocket is down. 'unauthorized'
 * means the page has no valid token and nothing will work until it is opened with one.
 */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'unauthorized';

/** What the renderer holds: the API contract plus the connection it travels over. */
export interface RendererClient extends TidingsClient {
  readonly transport: 'electron' | 'browser';
  connection(): ConnectionState;
  /** Fires on every change of connection state. */
  onConnection(listener: (state: ConnectionState) => void): Unsubscribe;
  /** Stops the event stream and reconnects (tests, page teardown). */
  close(): void;
}

/** What the preload exposes on window.tidings (contextBridge); the channel names are main's business. */
export interface TidingsBridge {
  invoke(method: string, args: unknown[]): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}
