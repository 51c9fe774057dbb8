/**
 * Browser-mode transport: commands are `POST /api/<method>` with a bearer token and `{"args":[...]}`;
 * events arrive on a WebSocket at /api/events. The socket reconnects with back-off; when it comes
 * back, the connection state goes 'reconnecting' -> 'open' and the store refetches what it may have
 * missed. A 401 anywhere turns the state to 'unauthorized' and stops all retrying.
 */
import type { ApiMethod, EventName, TidingsEvents } from '../../../src/app/api';
import { ApiError } from './api-error';
import { backoffDelay } from './backoff';
import { EventListeners, Listeners } from './listeners';
import { createApiProxy } from './proxy';
import type { ConnectionState, RendererClient } from './types';

export interface HttpClientOptions {
  /** The server's origin, e.g. "http://127.0.0.1:7411". */
  baseUrl: string;
  token: string | null;
  fetch?: typeof fetch;
  WebSocket?: typeof WebSocket;
  /** Delay before reconnect attempt n (0-based). */
  backoff?: (attempt: number) => number;
}

export function createHttpClient(options: HttpClientOptions): RendererClient {
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const Socket = options.WebSocket ?? globalThis.WebSocket;
  const backoff = options.backoff ?? ((attempt: number) => backoffDelay(attempt));
  const { token } = options;

  const events = new EventListeners();
  const connectionListeners = new Listeners<ConnectionState>();
  let state: ConnectionState = token ? 'connecting' : 'unauthorized';
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  let closed = false;

  function setState(next: ConnectionState): void {
    if (state === next || state === 'unauthorized') return;
    state = next;
    if (next === 'unauthorized') stopSocket();
    connectionListeners.emit(next);
  }

  async function call(method: ApiMethod, args: unknown[]): Promise<unknown> {
    if (!token || state === 'unauthorized') throw unauthorized();
    let response: Response;
    try {
      response = await fetchFn(new URL(`/api/${method}`, options.baseUrl), {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ args }),
      });
    } catch {
      throw new ApiError('network', 'Cannot reach Tidings: is `tidings serve` still running?');
    }
    const text = await response.text();
    const body = parseJson(text);
    if (response.status === 401) {
      setState('unauthorized');
      throw unauthorized(errorOf(body)?.message);
    }
    if (!response.ok) {
      const error = errorOf(body);
      throw new ApiError(
        error?.code ?? `http.${response.status}`,
        error?.message ?? `Tidings answered ${response.status} ${response.statusText}`.trim(),
        response.status,
      );
    }
    if (isObject(body) && 'result' in body) return body.result;
    if (text === '') return undefined;
    throw new ApiError('bad_response', 'Tidings sent an answer this page could not read.', response.status);
  }

  function connect(): void {
    timer = null;
    if (closed || state === 'unauthorized' || !token) return;
    const url = new URL('/api/events', options.baseUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('token', token);
    let opened = false;
    const ws = new Socket(url.toString());
    socket = ws;
    ws.onopen = () => {
      opened = true;
      attempt = 0;
      setState('open');
    };
    ws.onmessage = (message: MessageEvent) => {
      if (typeof message.data !== 'string') return;
      const data = parseJson(message.data);
      if (isObject(data) && typeof data.event === 'string') events.emit(data.event, data.payload);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      if (closed || state === 'unauthorized') return;
      setState('reconnecting');
      // A socket that never opened may have been refused for its token; browsers hide the status,
      // so ask a command: a 401 there switches to 'unauthorized' and ends the retries.
      const probe = opened ? Promise.resolve() : call('progress', []).then(noop, noop);
      void probe.then(() => {
        if (closed || state === 'unauthorized' || timer) return;
        timer = setTimeout(connect, backoff(attempt++));
      });
    };
  }

  function stopSocket(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    const ws = socket;
    socket = null;
    if (ws && ws.readyState <= 1) ws.close();
  }

  const api = createApiProxy(call);
  if (token) connect();

  return {
    ...api,
    transport: 'browser',
    on<E extends EventName>(event: E, listener: (payload: TidingsEvents[E]) => void) {
      return events.add(event, listener as (payload: unknown) => void);
    },
    connection: () => state,
    onConnection: (listener) => connectionListeners.add(listener),
    close() {
      closed = true;
      stopSocket();
      events.clear();
      connectionListeners.clear();
    },
  };
}

function unauthorized(message?: string): ApiError {
  return new ApiError(
    'unauthorized',
    message ?? 'This page needs the link printed by `tidings serve` (it carries the access token).',
    401,
  );
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function errorOf(body: unknown): { code?: string; message?: string } | null {
  if (!isObject(body) || !isObject(body.error)) return null;
  const { code, message } = body.error;
  return {
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}

function noop(): void {}
