/**
 * Test helpers for the cloud: a real loopback "peer" server (feed host and subscriber in one,
 * like the reference cloud's own e2e mock, over HTTP and HTTPS), a cloud served on loopback, and
 * small clients for REST and XML-RPC calls. Not a test file itself; no mocks of our own parts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, inject } from 'vitest';
import { type Cloud, type CloudDeps, createCloud } from '../cloud/cloud.ts';
import { PgCloudStore, type PgStoreOptions } from '../cloud/store/pg.ts';
import { type Clock, ManualClock } from '../common/clock.ts';
import { createHttpClient } from '../net/http-client.ts';
import { type RunningServer, serve } from '../net/serve.ts';
import {
  decodeMethodCall,
  decodeMethodResponse,
  encodeMethodCall,
  encodeMethodResponse,
  type XmlRpcValue,
} from '../wire/xmlrpc.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `cloud-pg` project's PostgreSQL maintenance URL (pg-global-setup.ts); absent elsewhere. */
    pgAdminUrl?: string;
  }
}

export interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  /** Form fields of a urlencoded body. */
  form: Record<string, string>;
  text: string;
  /** The body's bytes as received. */
  raw: Buffer;
  rpc?: { methodName: string; params: XmlRpcValue[] };
}

type Reply =
  | string
  | { status?: number; body?: string | Buffer; location?: string; headers?: Record<string, string> }
  | 'hang';
type RouteFn = (r: Recorded) => Reply | Promise<Reply>;
type RpcFn = (r: Recorded) => XmlRpcValue | 'hang' | Promise<XmlRpcValue | 'hang'>;

/** Answers `rpc` calls and plain routes; records every request. */
export class Peer {
  readonly requests: Recorded[] = [];
  private readonly routes = new Map<string, { status: number; reply: RouteFn | Reply }>();
  private readonly rpcRoutes = new Map<string, RpcFn | XmlRpcValue>();
  private readonly hanging = new Set<ServerResponse>();
  private server: http.Server | null = null;
  private secure: https.Server | null = null;
  port = 0;
  securePort = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  get secureUrl(): string {
    return `https://127.0.0.1:${this.securePort}`;
  }

  /**
   * `reply` may be a body, a body with headers, a function of the request, or for 3xx the
   * Location (query kept).
   */
  route(method: 'GET' | 'POST', path: string, status: number, reply: RouteFn | Reply): this {
    this.routes.set(`${method} ${path}`, { status, reply });
    return this;
  }

  /** POST /RPC2 calls of `methodName` answer this value (default true) or the function's reply. */
  rpc(methodName: string, reply: RpcFn | XmlRpcValue = true): this {
    this.rpcRoutes.set(methodName, reply);
    return this;
  }

  hits(method: string, path: string): Recorded[] {
    return this.requests.filter((r) => r.method === method && r.path === path && !r.rpc);
  }

  rpcHits(methodName: string): Recorded[] {
    return this.requests.filter((r) => r.rpc?.methodName === methodName);
  }

  async start(withTls = false): Promise<this> {
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
    this.server = http.createServer({ keepAlive: true }, handler);
    this.port = await listen(this.server);
    if (withTls) {
      const dir = new URL('./testdata/', import.meta.url);
      this.secure = https.createServer(
        {
          key: readFileSync(new URL('localhost.key', dir)),
          cert: readFileSync(new URL('localhost.crt', dir)),
        },
        handler,
      );
      this.securePort = await listen(this.secure);
    }
    return this;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    await Promise.all(
      [this.server, this.secure].map(
        (s) =>
          s &&
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeAllConnections();
          }),
      ),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const text = raw.toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    const rec: Recorded = {
      method: req.method ?? 'GET',
      path: url.pathname,
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
      query: Object.fromEntries(url.searchParams),
      form: /urlencoded/.test(req.headers['content-type'] ?? '')
        ? Object.fromEntries(new URLSearchParams(text))
        : {},
      text,
      raw,
    };
    if (rec.method === 'POST' && rec.path === '/RPC2') {
      const call = decodeMethodCall(text);
      if (call.ok) rec.rpc = call.value;
      this.requests.push(rec);
      const reply = call.ok ? this.rpcRoutes.get(call.value.methodName) : undefined;
      if (reply === undefined) return send(res, 501, 'unknown method');
      const value = typeof reply === 'function' ? await reply(rec) : reply;
      if (value === 'hang') return void this.hanging.add(res);
      return send(res, 200, encodeMethodResponse(value as XmlRpcValue), { 'content-type': 'text/xml' });
    }
    this.requests.push(rec);
    const route = this.routes.get(`${rec.method} ${rec.path}`);
    if (!route) return send(res, 501, `Unknown route ${rec.method} ${rec.path}`);
    const out = typeof route.reply === 'function' ? await route.reply(rec) : route.reply;
    if (out === 'hang') return void this.hanging.add(res);
    const o = typeof out === 'string' ? { body: out } : out;
    const status = o.status ?? route.status;
    if (status >= 300 && status < 400) {
      const location = (o.location ?? String(o.body ?? '')) + (url.search || '');
      return send(res, status, '', { location });
    }
    send(res, status, o.body ?? '', o.headers);
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  res.writeHead(status, {
    'content-type': 'text/plain',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

function listen(server: http.Server | https.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

export interface TestCloud {
  cloud: Cloud;
  server: RunningServer;
  url: string;
  clock: Clock;
  dir: string;
  dbPath: string;
  close(opts?: { keepData?: boolean }): Promise<void>;
}

/**
 * Which store the cloud tests run on: SQLite (a file in the cloud's folder), or, in the
 * `cloud-pg` test project (vitest.config.mts), a database of its own on the PostgreSQL server
 * that project's global setup started (pg-global-setup.ts). A folder reused (a restart) names
 * the same database again.
 */
export async function testDatabase(home: string): Promise<string> {
  const admin = inject('pgAdminUrl');
  if (!admin) return join(home, 'cloud.sqlite');
  const name = `c_${createHash('sha1').update(home).digest('hex').slice(0, 16)}`;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return admin.replace(/\/[^/]*$/, `/${name}`);
}

/**
 * For the PostgreSQL store's own tests: every test gets a database of its own (`db.url`), and the
 * stores opened with `db.open(options)` are closed after it.
 */
export function pgDatabasePerTest(name: string): {
  readonly url: string;
  open(opts?: PgStoreOptions): PgCloudStore;
} {
  let url = '';
  const opened: PgCloudStore[] = [];
  beforeEach(async () => {
    url = await testDatabase(`/tmp/${name}-${Date.now()}-${Math.random()}`);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  return {
    get url() {
      return url;
    },
    open(opts = {}) {
      const store = new PgCloudStore(url, opts);
      opened.push(store);
      return store;
    },
  };
}

/** A cloud with its own temp database, allowed to reach loopback, served on 127.0.0.1. */
export async function startCloud(overrides: Partial<CloudDeps> = {}, dir?: string): Promise<TestCloud> {
  const home = dir ?? mkdtempSync(join(tmpdir(), 'tidings-cloud-'));
  const clock = overrides.clock ?? new ManualClock(Date.UTC(2026, 0, 1));
  // https-post subscribers use the self-signed certificate in testdata/: trusted here, not by
  // turning certificate checks off.
  const ca = readFileSync(new URL('./testdata/localhost.crt', import.meta.url));
  const httpClient = createHttpClient({ hostPolicy: { allowLoopback: true }, ca });
  const notifyHttp = createHttpClient({ hostPolicy: { allowLoopback: true }, ca, maxSocketsPerHost: 128 });
  const dbPath = await testDatabase(home);
  const cloud = createCloud({
    dbPath,
    http: httpClient,
    notifyHttp,
    clock,
    allow: { loopback: true },
    ...overrides,
  });
  const server = await serve((req, info) => cloud.handle(req, info), { maxBodyBytes: 4 * 1024 * 1024 });
  return {
    cloud,
    server,
    url: server.url,
    clock,
    dir: home,
    dbPath,
    async close(opts = {}) {
      await server.close();
      await cloud.close();
      httpClient.close();
      notifyHttp.close();
      if (!opts.keepData && !dir) rmSync(home, { recursive: true, force: true });
    },
  };
}

/** POST a urlencoded form; JSON answers parsed, XML answers as text. */
export async function postForm(
  url: string,
  fields: Record<string, string | number | boolean>,
  accept?: string,
) {
  const body = new URLSearchParams(
    Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(accept ? { accept } : {}) },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, contentType: res.headers.get('content-type') ?? '' };
}

/** An XML-RPC call; the decoded answer. */
export async function rpcCall(url: string, methodName: string, params: XmlRpcValue[]) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: encodeMethodCall(methodName, params),
  });
  const text = await res.text();
  const decoded = decodeMethodResponse(text);
  if (!decoded.ok) throw new Error(`not an XML-RPC answer: ${text}`);
  return { status: res.status, answer: decoded.value, text };
}

/** The reference cloud's answer forms, for exact comparison. */
export function restXml(element: 'notifyResult' | 'result', success: boolean, msg: string): string {
  const esc = msg.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return `<?xml version="1.0"?>\n<${element} success="${success}" msg="${esc}"/>`;
}

export const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `tidings cloud` as a child process (src/cloud/cli.ts on this Node). */
export interface CloudProcess {
  child: ChildProcess;
  /** Its origin, from the line it prints once listening. */
  url: string;
  exited: Promise<number | null>;
}

/** Starts `tidings cloud ARGS`; resolves once it printed the listening line, rejects if it exits first. */
export function spawnCloudCli(args: readonly string[]): Promise<CloudProcess> {
  const cli = new URL('../cloud/cli.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s/]+)\//.exec(out);
      if (m) resolve({ child, url: m[1]!, exited });
    });
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    void exited.then((code) => reject(new Error(`cloud exited (${code}) before listening: ${err}`)));
  });
}

/**
 * Where a cloud process keeps its state, as `tidings cloud` flags: `--data HOME` (SQLite), or in
 * the `cloud-pg` project `--database URL` (the database testDatabase gives HOME). A restart with
 * the same flags finds the same state.
 */
export async function storeFlags(home: string): Promise<string[]> {
  const where = await testDatabase(home);
  return where.endsWith('cloud.sqlite') ? ['--data', home] : ['--database', where];
}

/** `tidings cloud user add NAME` (password on stdin) against the store `flags` name. */
export function addCloudUser(flags: readonly string[], name: string, password: string): Promise<void> {
  const cli = new URL('../cloud/cli.ts', import.meta.url).pathname;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'user', 'add', name, ...flags], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`user add exited ${code}: ${err}`)),
    );
    child.stdin!.end(`${password}\n`);
  });
}

/** A `tidings cloud` child process on loopback with its own store (see storeFlags). */
export async function startCloudProcess(
  args: readonly string[] = [],
  home = mkdtempSync(join(tmpdir(), 'tidings-cloud-process-')),
): Promise<CloudProcess & { home: string; flags: string[] }> {
  const flags = await storeFlags(home);
  const started = await spawnCloudCli(['--port', '0', '--allow-loopback', ...flags, ...args]);
  return { ...started, home, flags };
}
