/** The writer's settings: defaults, and a patch checked field by field with a readable refusal. */
import { isAbsolute } from 'node:path';
import type { PublishSettings } from '../app/api.ts';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { DEFAULT_CHAR_LIMIT } from './graphemes.ts';
import { httpUrl } from './post.ts';

export const DEFAULT_PUBLISH_SETTINGS: PublishSettings = {
  title: 'My posts',
  description: 'Short posts written with Tidings',
  link: null,
  language: 'en',
  charLimit: DEFAULT_CHAR_LIMIT,
  feedSize: 25,
  hosting: { enabled: true, private: null },
  folder: null,
  saveRss: null,
  cloud: 'own',
  pingSinks: [],
  hubs: ['own'],
  shareBlogroll: false,
};

const bad = (message: string) => fail<PublishSettings>(tidingsError('settings.invalid', message));

/** The keys each object of the settings may hold; anything else is a typo, refused by name. */
const KNOWN_KEYS: Record<string, readonly string[]> = {
  '': Object.keys(DEFAULT_PUBLISH_SETTINGS),
  hosting: ['enabled', 'private'],
  'hosting.private': ['scheme', 'username', 'password'],
  folder: ['enabled', 'path', 'publicUrl'],
  saveRss: ['enabled', 'cloudUrl', 'username', 'password'],
  cloud: ['domain', 'port', 'path', 'protocol', 'registerProcedure'],
  'pingSinks[]': ['kind', 'url'],
};

/** The first key of a patch that no setting has ("hosting.bogus"), null when all are known. */
export function unknownSettingKey(patch: unknown, at = ''): string | null {
  if (!patch || typeof patch !== 'object') return null;
  if (Array.isArray(patch)) {
    for (const entry of patch) {
      const found = unknownSettingKey(entry, `${at}[]`);
      if (found) return found;
    }
    return null;
  }
  const known = KNOWN_KEYS[at];
  if (!known) return null;
  for (const [key, value] of Object.entries(patch)) {
    const path = at ? `${at}.${key}` : key;
    if (!known.includes(key)) return path;
    const deeper = unknownSettingKey(value, path);
    if (deeper) return deeper;
  }
  return null;
}

export function applyPatch(
  current: PublishSettings,
  patch: Partial<PublishSettings>,
): Result<PublishSettings> {
  const unknown = unknownSettingKey(patch);
  if (unknown) {
    return fail(
      tidingsError('settings.unknownKey', `There is no publish setting "${unknown}".`, { key: unknown }),
    );
  }
  const next: PublishSettings = { ...current, ...patch };
  if (typeof next.title !== 'string' || next.title.trim() === '') return bad('The feed needs a title.');
  if (typeof next.description !== 'string') return bad('The description must be text.');
  if (next.link !== null && !httpUrl(String(next.link)))
    return bad(`The site link must be an http(s) address.`);
  if (typeof next.language !== 'string' || !/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(next.language)) {
    return bad(`"${String(next.language)}" is not a language tag (like en or pt-BR).`);
  }
  if (!Number.isInteger(next.charLimit) || next.charLimit < 1 || next.charLimit > 100_000) {
    return bad('The character limit must be a whole number from 1 to 100000.');
  }
  if (!Number.isInteger(next.feedSize) || next.feedSize < 1 || next.feedSize > 1000) {
    return bad('The feed holds from 1 to 1000 posts.');
  }
  const h = next.hosting;
  if (!h || typeof h.enabled !== 'boolean') return bad('hosting.enabled must be true or false.');
  if (
    h.private &&
    (!['basic', 'wsse'].includes(h.private.scheme) || !h.private.username || !h.private.password)
  ) {
    return bad('A private feed needs basic or wsse, a user name and a password.');
  }
  if (next.folder) {
    if (!isAbsolute(next.folder.path ?? '')) return bad('The folder must be a full path.');
    if (!httpUrl(next.folder.publicUrl ?? ''))
      return bad("The folder's public address must be an http(s) URL.");
  }
  if (next.saveRss) {
    if (!httpUrl(next.saveRss.cloudUrl ?? ''))
      return bad("The saveRss cloud's address must be an http(s) URL.");
    if (!next.saveRss.username || typeof next.saveRss.password !== 'string') {
      return bad('saveRss needs the account name and password the cloud gave you.');
    }
  }
  if (next.cloud !== 'own') {
    const c = next.cloud;
    if (!c || typeof c.domain !== 'string' || !/^[A-Za-z0-9.:[\]-]+$/.test(c.domain))
      return bad("The cloud's domain is missing.");
    if (!Number.isInteger(c.port) || c.port < 1 || c.port > 65535)
      return bad("The cloud's port must be 1-65535.");
    if (typeof c.path !== 'string' || !c.path.startsWith('/'))
      return bad("The cloud's path must start with /.");
    if (!['http-post', 'https-post', 'xml-rpc'].includes(c.protocol))
      return bad('The cloud speaks http-post, https-post or xml-rpc.');
  }
  if (!Array.isArray(next.pingSinks)) return bad('pingSinks must be a list.');
  for (const s of next.pingSinks) {
    if (!['weblogUpdates', 'httpGet', 'rssPing'].includes(s?.kind))
      return bad(`Unknown ping kind "${String(s?.kind)}".`);
    if (!httpUrl(s.url ?? '')) return bad(`The ping address "${String(s.url)}" is not an http(s) URL.`);
  }
  if (!Array.isArray(next.hubs)) return bad('hubs must be a list.');
  for (const h of next.hubs) {
    if (h !== 'own' && !httpUrl(String(h ?? ''))) return bad(`The hub "${String(h)}" is not an http(s) URL.`);
  }
  return ok({
    ...next,
    hubs: [...new Set(next.hubs.map((h) => h.trim()))],
    title: next.title.trim(),
    // A patch may send { enabled } alone: absent means public, not "private: undefined".
    hosting: { enabled: h.enabled, private: h.private ?? null },
    ...(next.cloud !== 'own'
      ? { cloud: { ...next.cloud, registerProcedure: next.cloud.registerProcedure ?? '' } }
      : {}),
  });
}
