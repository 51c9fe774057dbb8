/**
 * Test clients for the sync APIs (issue 32), written from the public descriptions of the Google
 * Reader API (FreshRSS's and Miniflux's docs) and of the Fever API, the way the phone apps use
 * them: a Google Reader client logs in with ClientLogin, sends `Authorization: GoogleLogin auth=`
 * on every call and `T` on writes; a Fever client sends its md5 api_key in each form body.
 *
 * `syncLikeNetNewsWire` and `syncLikeReeder` replay the calls those apps make on a sync (tag/list,
 * subscription/list, unread ids with xt=read, starred ids, then contents as POSTs of many `i`),
 * following continuations the way they do. Requests go over real sockets; through a tunnel the
 * socket is the tunnel server's and the Host header names the tunnel (`<id>.localhost:P`), as a
 * phone's request through the public address would.
 */
import { createHash } from 'node:crypto';
import { request } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request to `url`; `via` dials another address and keeps url's host in the Host header. */
export function httpCall(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; via?: string } = {},
): Promise<HttpAnswer> {
  const target = new URL(url);
  const dial = opts.via ? new URL(opts.via) : target;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: dial.hostname,
        port: dial.port,
        method: opts.method ?? 'GET',
        path: `${target.pathname}${target.search}`,
        headers: {
          host: target.host,
          ...(opts.body !== undefined ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}),
          ...opts.headers,
        },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in 30 s`)));
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

export type Form = [string, string][];

const formBody = (form: Form) => new URLSearchParams(form).toString();

export interface GReaderItemJson {
  id: string;
  title: string;
  categories: string[];
  origin: { streamId: string; title: string };
  published: number;
  timestampUsec: string;
  summary: { content: string };
  alternate: { href: string }[];
}

export class GReaderTestClient {
  token: string | null = null;
  calls: string[] = [];
  private readonly base: string;
  private readonly via: string | undefined;

  /** `base` is the API's address, e.g. https://tunnel/api/greader. */
  constructor(base: string, opts: { via?: string } = {}) {
    this.base = base.replace(/\/+$/, '');
    this.via = opts.via;
  }

  async login(user: string, password: string): Promise<HttpAnswer> {
    const res = await this.raw('POST', '/accounts/ClientLogin', [
      ['Email', user],
      ['Passwd', password],
    ]);
    if (res.status === 200) {
      const auth = /^Auth=(.+)$/m.exec(res.text)?.[1];
      if (!auth) throw new Error(`ClientLogin answered 200 without Auth=: ${res.text}`);
      this.token = auth.trim();
    }
    return res;
  }

  raw(method: 'GET' | 'POST', path: string, form: Form = [], headers: Record<string, string> = {}) {
    this.calls.push(`${method} ${path.split('?')[0]}`);
    const auth: Record<string, string> = this.token
      ? { authorization: `GoogleLogin auth=${this.token}` }
      : {};
    if (method === 'GET') {
      const q = form.length ? `${path.includes('?') ? '&' : '?'}${formBody(form)}` : '';
      return httpCall(`${this.base}${path}${q}`, { headers: { ...auth, ...headers }, via: this.via });
    }
    return httpCall(`${this.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth, ...headers },
      body: formBody(form),
      via: this.via,
    });
  }

  async json<T>(method: 'GET' | 'POST', path: string, form: Form = []): Promise<T> {
    const res = await this.raw(method, path, form);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
    return JSON.parse(res.text) as T;
  }

  /** The edit token for writes (T), as clients ask for it. */
  async editToken(): Promise<string> {
    const res = await this.raw('GET', '/reader/api/0/token');
    if (res.status !== 200) throw new Error(`token: ${res.status}`);
    return res.text;
  }

  /** A write with T, answered with the plain OK clients check. */
  async write(path: string, form: Form): Promise<HttpAnswer> {
    return this.raw('POST', path, [['T', await this.editToken()], ...form]);
  }

  /** Every id of a stream, following continuations; the pages' sizes come back too. */
  async allIds(stream: string, extra: Form = [], n = 1000): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let c: string | null = null;
    let pages = 0;
    do {
      const form: Form = [['output', 'json'], ['s', stream], ['n', String(n)], ...extra];
      if (c) form.push(['c', c]);
      const page: { itemRefs: { id: string }[]; continuation?: string } = await this.json(
        'GET',
        '/reader/api/0/stream/items/ids',
        form,
      );
      pages++;
      ids.push(...page.itemRefs.map((r) => r.id));
      c = page.continuation ?? null;
      if (pages > 10_000) throw new Error('continuations never end');
    } while (c);
    return { ids, pages };
  }

  /** Items' contents by POST of many `i` (in batches, as the apps do). */
  async contents(ids: readonly string[], batch = 1000): Promise<GReaderItemJson[]> {
    const out: GReaderItemJson[] = [];
    const T = await this.editToken();
    for (let i = 0; i < ids.length; i += batch) {
      const form: Form = [
        ['T', T],
        ['output', 'json'],
        ...ids.slice(i, i + batch).map((id): [string, string] => ['i', id]),
      ];
      const res = await this.raw('POST', '/reader/api/0/stream/items/contents', form);
      if (res.status !== 200) throw new Error(`contents: ${res.status} ${res.text.slice(0, 200)}`);
      out.push(...(JSON.parse(res.text) as { items: GReaderItemJson[] }).items);
    }
    return out;
  }

  /**
   * NetNewsWire's sync (its FreshRSS account): tags, subscriptions, unread ids with xt=read (n=1000,
   * following continuations), starred ids, then the contents of the unread and starred items it
   * has not got, as POSTs with `i` in the long form with unpadded hex, as it sends them.
   */
  syncLikeNetNewsWire(known: ReadonlySet<string> = new Set()) {
    return this.replay({
      userInfo: false,
      idsPerPage: 1000,
      batch: 1000,
      idForm: (id) => `tag:google.com,2005:reader/item/${Number(id).toString(16)}`,
      known,
    });
  }

  /**
   * Reeder's sync: the same reading calls after user-info, unread ids in one big page (n=10000),
   * contents in batches of 250 with decimal short ids.
   */
  syncLikeReeder() {
    return this.replay({
      userInfo: true,
      idsPerPage: 10_000,
      batch: 250,
      idForm: (id) => id,
      known: new Set(),
    });
  }

  private async replay(how: {
    userInfo: boolean;
    idsPerPage: number;
    batch: number;
    idForm: (decimalId: string) => string;
    known: ReadonlySet<string>;
  }) {
    if (how.userInfo) await this.json('GET', '/reader/api/0/user-info');
    const tags = await this.json<{ tags: { id: string; type?: string }[] }>('GET', '/reader/api/0/tag/list', [
      ['output', 'json'],
    ]);
    const subs = await this.json<{
      subscriptions: { id: string; title: string; categories: { id: string }[] }[];
    }>('GET', '/reader/api/0/subscription/list', [['output', 'json']]);
    const unread = await this.allIds(
      'user/-/state/com.google/reading-list',
      [['xt', 'user/-/state/com.google/read']],
      how.idsPerPage,
    );
    const starred = await this.allIds('user/-/state/com.google/starred', [], how.idsPerPage);
    const wanted = [...new Set([...unread.ids, ...starred.ids])].filter((id) => !how.known.has(id));
    const items = await this.contents(wanted.map(how.idForm), how.batch);
    return {
      tags: tags.tags,
      subscriptions: subs.subscriptions,
      unread: unread.ids,
      starred: starred.ids,
      items,
    };
  }
}

export const feverKey = (user: string, password: string) =>
  createHash('md5').update(`${user}:${password}`).digest('hex');

export interface FeverAnswer {
  api_version: number;
  auth: 0 | 1;
  [key: string]: unknown;
}

export class FeverTestClient {
  private readonly url: string;
  private readonly via: string | undefined;
  apiKey: string;

  /** `url` is the API's address, e.g. https://tunnel/api/fever. */
  constructor(url: string, apiKey: string, opts: { via?: string } = {}) {
    this.url = url;
    this.apiKey = apiKey;
    this.via = opts.via;
  }

  /** `?api&<selectors>` with the key (and any more fields) in the form body, as Fever clients call. */
  async raw(selectors: string[], form: Form = []): Promise<HttpAnswer> {
    const q = ['api', ...selectors].join('&');
    return httpCall(`${this.url}?${q}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody([['api_key', this.apiKey], ...form]),
      via: this.via,
    });
  }

  async call(selectors: string[], form: Form = []): Promise<FeverAnswer> {
    const res = await this.raw(selectors, form);
    if (res.status !== 200)
      throw new Error(`fever ${selectors.join('&')}: ${res.status} ${res.text.slice(0, 200)}`);
    return JSON.parse(res.text) as FeverAnswer;
  }

  /** Reeder's Fever sync: groups, feeds, unread and saved ids, then every item by since_id. */
  async syncLikeReeder() {
    const groups = await this.call(['groups']);
    const feeds = await this.call(['feeds']);
    const unread = String((await this.call(['unread_item_ids'])).unread_item_ids ?? '');
    const saved = String((await this.call(['saved_item_ids'])).saved_item_ids ?? '');
    const items: { id: number; is_read: number; is_saved: number; feed_id: number }[] = [];
    let since = 0;
    for (let round = 0; round < 10_000; round++) {
      const page = (await this.call(['items'], [['since_id', String(since)]])).items as typeof items;
      if (page.length === 0) break;
      items.push(...page);
      since = page[page.length - 1]!.id;
    }
    const ids = (s: string) => (s ? s.split(',').map(Number) : []);
    return { groups, feeds, unread: ids(unread), saved: ids(saved), items };
  }
}
