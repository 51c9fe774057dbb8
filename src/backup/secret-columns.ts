/**
 * The one list of secrets in a data folder: every column (or part of one) that must never leave in
 * plain text. A backup takes each one out of its copy of the database: sealed with the person's
 * passphrase (seal.ts), or left out, in which case `withoutIt` says what stays in its place.
 *
 * Other rooms add their secrets here, one entry each (a new table with a password, a token or a
 * hash of one). secret-columns.test.ts fails when a column whose name looks secret is in no list,
 * so a new one cannot slip out in plain text unnoticed.
 */
import type { DatabasePart } from './layout.ts';

export type SecretHolds =
  /** The whole value. */
  | 'value'
  /** A JSON text: the values under keys that name a secret (password, token...), at any depth. */
  | 'jsonKeys'
  /** A URL: the password of its userinfo (https://name:password@host/). */
  | 'urlPassword';

export type WithoutSecret =
  /** The value becomes NULL (the row stays; the person gives the secret again). */
  | 'null'
  /** The row is left out: without its secret it means nothing (a login nobody can use). */
  | 'dropRow'
  /**
   * The secret is replaced by one nobody knows: a private thing stays private, and the person
   * sets a new secret ('jsonKeys': a random string; 'value': `replacement`; 'urlPassword': removed).
   */
  | 'replace';

export interface SecretColumn {
  part: DatabasePart;
  table: string;
  column: string;
  /** Only rows matching this SQL condition on the table's own columns. */
  where?: string;
  holds: SecretHolds;
  withoutIt: WithoutSecret;
  /** For 'value' + 'replace': what stands in its place (must match no secret, e.g. no hash form). */
  replacement?: string;
  /** What the person loses without it, a plural noun for "feed logins: 2". */
  label: string;
}

export const SECRET_COLUMNS: readonly SecretColumn[] = [
  {
    part: 'reader',
    table: 'feeds',
    column: 'credentials',
    holds: 'value',
    withoutIt: 'null',
    label: 'feed logins',
  },
  {
    part: 'reader',
    table: 'feeds',
    column: 'url',
    holds: 'urlPassword',
    withoutIt: 'replace',
    label: 'passwords in feed addresses',
  },
  {
    // The writer's settings: the private feed's password, saveRss's account password, and
    // whatever password or token a later publishing target keeps there.
    part: 'publish',
    table: 'kv',
    column: 'value',
    where: "key = 'settings'",
    holds: 'jsonKeys',
    withoutIt: 'replace',
    label: 'publishing passwords',
  },
  {
    part: 'cloud',
    table: 'accounts',
    column: 'password_hash',
    holds: 'value',
    withoutIt: 'replace',
    // verifyPassword (src/cloud/accounts.ts) accepts only "scrypt$...": no password matches this.
    replacement: 'left-out-of-backup',
    label: "your cloud's account passwords",
  },
  {
    // A WebSub subscriber's hub.secret signs what we deliver to it: without it, it would refuse
    // every delivery; left out, it subscribes again when its lease ends.
    part: 'cloud',
    table: 'subscriptions',
    column: 'secret',
    where: 'secret IS NOT NULL',
    holds: 'value',
    withoutIt: 'dropRow',
    label: "WebSub secrets of your cloud's subscribers",
  },
  {
    // The sync APIs' app password and the Fever key made from it, as scrypt hashes (src/sync/
    // account.ts): without them the restored reader keeps its user name and asks for a new
    // app password; the phone apps log in again with it.
    part: 'reader',
    table: 'sync_account',
    column: 'password_hash',
    holds: 'value',
    withoutIt: 'null',
    label: 'app passwords for phone apps',
  },
  {
    part: 'reader',
    table: 'sync_account',
    column: 'fever_key_hash',
    holds: 'value',
    withoutIt: 'null',
    label: 'Fever keys for phone apps',
  },
  {
    // Each phone app's login, as the SHA-256 of its token: a login means nothing without it.
    part: 'reader',
    table: 'sync_sessions',
    column: 'token_hash',
    holds: 'value',
    withoutIt: 'dropRow',
    label: 'phone apps logged in',
  },
];

/** JSON keys whose values are secrets wherever they appear ('jsonKeys' columns). */
export const SECRET_JSON_KEY =
  /^(password|passwd|passphrase|secret|token|api_?key|access_?token|private_?key)$/i;

/**
 * Columns whose names look secret but are not, with why: secret-columns.test.ts accepts these.
 * Anything else named like a secret must be in SECRET_COLUMNS.
 */
export const NOT_SECRET: Readonly<Record<string, string>> = {
  'reader.items.hash': "a hash of the item's own content, to see changes",
  'reader.feeds.body_hash': "a hash of the feed's last document, to see changes",
  'cloud.resources.last_hash': "a hash of a feed's last document, to see changes",
  'cloud.saved_feeds.hash': 'a hash of a saved feed, for its ETag',
  'cloud.retry_contents.hash': 'a hash of a WebSub content waiting for its retry, to see it changed',
  'cloud.retry_contents.topic_hash':
    "a hash of the topic's content when it was read, to drop an outdated retry",
  'publish.kv.key': 'the name of a setting',
  'reader.settings.key': 'the name of a setting',
  'reader.items.pub_key': "the item's date, as the river sorts it",
  'reader.sync_account.password_set_at': 'when the app password was made, not the password',
};
