/**
 * Clouds for tests and the latency bench, all on 127.0.0.1:
 * - startRealCloud: the project's own rssCloud server (src/cloud, following RSSCLOUD.md),
 *   able to call back tunnel URLs on *.localhost;
 * - startScriptedCloud: a few lines that answer pleaseNotify however a test says, for the forms
 *   the real one never sends (JSON from another cloud, refusals, faults, garbage, errors).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Cloud, type CloudDeps, createCloud } from '../cloud/cloud.ts';
import type { Clock } from '../common/clock.ts';
import { systemClock } from '../common/clock.ts';
import type { CloudElement } from '../feed/model.ts';
import { createHttpClient } from '../net/http-client.ts';
import { type RunningServer, serve } from '../net/serve.ts';
import { resolveLocalhostSubdomains } from './localhost-http.ts';

export interface RealCloud {
  cloud: Cloud;
  url: string;
  port: number;
  /** The <cloud> element a feed hosted with this cloud carries. */
  element(protocol: 'http-post' | 'xml-rpc' | 'https-post' | 'soap'): CloudElement;
  /** `<cloud .../>` markup for a test feed's channel. */
  markup(protocol: 'http-post' | 'xml-rpc'): string;
  /** A publisher's REST ping; resolves with the cloud's answer text. */
  ping(feedUrl: string): Promise<string>;
  close(): Promise<void>;
}

export async function startRealCloud(
  overrides: Partial<CloudDeps> = {},
  clock: Clock = systemClock,
): Promise<RealCloud> {
  const dir = mkdtempSync(join(tmpdir(), 'tidings-test-cloud-'));
  const http = resolveLocalhostSubdomains(
    createHttpClient({ hostPolicy: { allowLoopback: true }, maxSocketsPerHost: 64 }),
  );
  const cloud = createCloud({
    dbPath: join(dir, 'cloud.sqlite'),
    http,
    notifyHttp: http,
    clock,
    allow: { loopback: true },
    ...overrides,
  });
  const server = await serve((req, info) => cloud.handle(req, info), { maxBodyBytes: 4 * 1024 * 1024 });
  const element = (protocol: string): CloudElement => ({
    domain: '127.0.0.1',
    port: server.port,
    path: protocol === 'xml-rpc' ? '/RPC2' : '/pleaseNotify',
    registerProcedure: protocol === 'xml-rpc' ? 'rssCloud.pleaseNotify' : '',
    protocol,
  });
  return {
    cloud,
    url: server.url,
    port: server.port,
    element,
    markup(protocol) {
      const e = element(protocol);
      return `<cloud domain="${e.domain}" port="${e.port}" path="${e.path}" registerProcedure="${e.registerProcedure}" protocol="${e.protocol}"/>`;
    },
    async ping(feedUrl) {
      const res = await fetch(`${server.url}/ping`, {
        method: 'POST',
        body: new URLSearchParams({ url: feedUrl }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      return res.text();
    },
    async close() {
      await server.close();
      await cloud.close();
      http.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ScriptedRequest {
  method: string;
  path: string;
  contentType: string;
  accept: string;
  body: string;
}

export interface ScriptedCloud {
  url: string;
  port: number;
  requests: ScriptedRequest[];
  element(protocol?: string, path?: string): CloudElement;
  /** Replaces the answer for the next requests. */
  answer(fn: (req: ScriptedRequest) => Response | Promise<Response>): void;
  close(): Promise<void>;
}

export async function startScriptedCloud(
  fn: (req: ScriptedRequest) => Response | Promise<Response>,
): Promise<ScriptedCloud> {
  const requests: ScriptedRequest[] = [];
  let reply = fn;
  const server: RunningServer = await serve(async (req) => {
    const seen: ScriptedRequest = {
      method: req.method,
      path: new URL(req.url).pathname,
      contentType: req.headers.get('content-type') ?? '',
      accept: req.headers.get('accept') ?? '',
      body: await req.text(),
    };
    requests.push(seen);
    return reply(seen);
  });
  return {
    url: server.url,
    port: server.port,
    requests,
    element: (protocol = 'http-post', path = protocol === 'xml-rpc' ? '/RPC2' : '/pleaseNotify') => ({
      domain: '127.0.0.1',
      port: server.port,
      path,
      registerProcedure: protocol === 'xml-rpc' ? 'rssCloud.pleaseNotify' : '',
      protocol,
    }),
    answer(next) {
      reply = next;
    },
    close: () => server.close(),
  };
}

export const xmlAnswer = (success: boolean, msg: string) =>
  new Response(
    `<?xml version="1.0"?>\n<notifyResult success="${success}" msg="${msg.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')}"/>`,
    { headers: { 'content-type': 'text/xml' } },
  );
