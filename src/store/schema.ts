/**
 * The reader's schema, one migration per version (tracked by PRAGMA user_version in
 * openDatabase). Version 1 is the whole schema; later versions add steps, never edit this one.
 *
 * Why it looks like this:
 * - items are unique per (feed_id, guid): identity is the model's Item.id scoped to its feed
 *   (STYLE 12), so one INSERT .. ON CONFLICT per item does "new or changed".
 * - the river is newest first by (seen_at, pub_key, id), all NOT NULL so keyset pagination
 *   is one row-value comparison on an index; partial indexes serve the unread and starred views.
 * - feeds.unread is a counter kept by triggers, so the feed list never counts 100k rows.
 * - items_fts is contentless (the text is HTML-stripped by the upsert code, which SQL cannot
 *   do); contentless_delete lets the delete trigger keep it in step on prune and unsubscribe.
 * - tombstones remember pruned items so a feed that still lists them cannot bring them back.
 */
import type { Migration } from './sqlite.ts';

const V1 = `
CREATE TABLE folders (
  id INTEGER PRIMARY KEY,
  parent_id INTEGER REFERENCES folders(id) ON DELETE CASCADE,
  title TEXT NOT NULL COLLATE NOCASE
);
CREATE UNIQUE INDEX folders_title ON folders(IFNULL(parent_id, 0), title);

CREATE TABLE feeds (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  title TEXT,
  site_url TEXT,
  description TEXT,
  folder_id INTEGER REFERENCES folders(id) ON DELETE SET NULL,
  credentials TEXT,
  interval_min INTEGER,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ok', 'error', 'gone')),
  last_error TEXT,
  last_error_code TEXT,
  etag TEXT,
  last_modified TEXT,
  body_hash TEXT,
  last_fetched_at INTEGER,
  next_due_at INTEGER,
  due_reason TEXT,
  consecutive_errors INTEGER NOT NULL DEFAULT 0,
  meta TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  unread INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX feeds_folder ON feeds(folder_id);

CREATE TABLE items (
  id INTEGER PRIMARY KEY,
  feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
  guid TEXT NOT NULL,
  title TEXT,
  link TEXT,
  summary TEXT,
  content TEXT,
  published TEXT,
  updated TEXT,
  -- published as ms since epoch, 0 when absent: the river's tie-break inside one fetch
  pub_key INTEGER NOT NULL,
  seen_at INTEGER NOT NULL,
  read INTEGER NOT NULL DEFAULT 0,
  starred INTEGER NOT NULL DEFAULT 0,
  -- JSON arrays, NULL when empty
  authors TEXT,
  categories TEXT,
  enclosures TEXT,
  media TEXT,
  children TEXT,
  comments TEXT,
  -- hash of everything the feed said about the item: an unchanged item is not rewritten
  hash TEXT NOT NULL,
  revision INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX items_identity ON items(feed_id, guid);
CREATE INDEX items_river ON items(seen_at, pub_key, id);
CREATE INDEX items_feed_river ON items(feed_id, seen_at, pub_key, id);
CREATE INDEX items_unread_river ON items(seen_at, pub_key, id) WHERE read = 0;
CREATE INDEX items_starred_river ON items(seen_at, pub_key, id) WHERE starred = 1;

CREATE TRIGGER items_unread_insert AFTER INSERT ON items WHEN NEW.read = 0 BEGIN
  UPDATE feeds SET unread = unread + 1 WHERE id = NEW.feed_id;
END;
CREATE TRIGGER items_unread_delete AFTER DELETE ON items WHEN OLD.read = 0 BEGIN
  UPDATE feeds SET unread = unread - 1 WHERE id = OLD.feed_id;
END;
CREATE TRIGGER items_unread_update AFTER UPDATE OF read, feed_id ON items
WHEN OLD.read IS NOT NEW.read OR OLD.feed_id IS NOT NEW.feed_id BEGIN
  UPDATE feeds SET unread = unread - 1 WHERE id = OLD.feed_id AND OLD.read = 0;
  UPDATE feeds SET unread = unread + 1 WHERE id = NEW.feed_id AND NEW.read = 0;
END;

CREATE VIRTUAL TABLE items_fts USING fts5(
  title, body,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2',
  -- as-you-type prefixes of 3 letters read one doclist instead of merging thousands
  prefix = '3'
);
CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
  DELETE FROM items_fts WHERE rowid = OLD.id;
END;

CREATE TABLE tombstones (
  feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
  guid TEXT NOT NULL,
  -- last time the feed still listed the pruned item; stale tombstones are dropped
  last_seen INTEGER NOT NULL,
  PRIMARY KEY (feed_id, guid)
) WITHOUT ROWID;

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
`;

/**
 * Version 2: ids are never reused. Without AUTOINCREMENT SQLite hands out max(id)+1, so removing
 * the newest feed gave its id to the next one added, and a fetch still in flight for the removed
 * feed landed in the new one (issue 10). SQLite cannot add AUTOINCREMENT to a column, so feeds and
 * items are rebuilt with the same rows and ids (items_fts is keyed by item id and stays valid).
 * Also: feeds.parse_notes, what the last good parse of the document noted.
 */
const V2 = `
CREATE TABLE feeds_v2 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  url TEXT NOT NULL UNIQUE,
  title TEXT,
  site_url TEXT,
  description TEXT,
  folder_id INTEGER REFERENCES folders(id) ON DELETE SET NULL,
  credentials TEXT,
  interval_min INTEGER,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ok', 'error', 'gone')),
  last_error TEXT,
  last_error_code TEXT,
  etag TEXT,
  last_modified TEXT,
  body_hash TEXT,
  last_fetched_at INTEGER,
  next_due_at INTEGER,
  due_reason TEXT,
  consecutive_errors INTEGER NOT NULL DEFAULT 0,
  meta TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  unread INTEGER NOT NULL DEFAULT 0,
  -- JSON array of what the last good parse noted (repaired, items capped...), NULL when none
  parse_notes TEXT
);
INSERT INTO feeds_v2 (id, url, title, site_url, description, folder_id, credentials, interval_min, status, last_error, last_error_code, etag, last_modified, body_hash, last_fetched_at, next_due_at, due_reason, consecutive_errors, meta, created_at, unread)
  SELECT id, url, title, site_url, description, folder_id, credentials, interval_min, status, last_error, last_error_code, etag, last_modified, body_hash, last_fetched_at, next_due_at, due_reason, consecutive_errors, meta, created_at, unread FROM feeds;

CREATE TABLE items_v2 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
  guid TEXT NOT NULL,
  title TEXT,
  link TEXT,
  summary TEXT,
  content TEXT,
  published TEXT,
  updated TEXT,
  -- published as ms since epoch, 0 when absent: the river's tie-break inside one fetch
  pub_key INTEGER NOT NULL,
  seen_at INTEGER NOT NULL,
  read INTEGER NOT NULL DEFAULT 0,
  starred INTEGER NOT NULL DEFAULT 0,
  -- JSON arrays, NULL when empty
  authors TEXT,
  categories TEXT,
  enclosures TEXT,
  media TEXT,
  children TEXT,
  comments TEXT,
  -- hash of everything the feed said about the item: an unchanged item is not rewritten
  hash TEXT NOT NULL,
  revision INTEGER NOT NULL DEFAULT 0
);
INSERT INTO items_v2 SELECT * FROM items;

DROP TABLE items;
DROP TABLE feeds;
ALTER TABLE feeds_v2 RENAME TO feeds;
ALTER TABLE items_v2 RENAME TO items;
CREATE INDEX feeds_folder ON feeds(folder_id);
CREATE UNIQUE INDEX items_identity ON items(feed_id, guid);
CREATE INDEX items_river ON items(seen_at, pub_key, id);
CREATE INDEX items_feed_river ON items(feed_id, seen_at, pub_key, id);
CREATE INDEX items_unread_river ON items(seen_at, pub_key, id) WHERE read = 0;
CREATE INDEX items_starred_river ON items(seen_at, pub_key, id) WHERE starred = 1;

CREATE TRIGGER items_unread_insert AFTER INSERT ON items WHEN NEW.read = 0 BEGIN
  UPDATE feeds SET unread = unread + 1 WHERE id = NEW.feed_id;
END;
CREATE TRIGGER items_unread_delete AFTER DELETE ON items WHEN OLD.read = 0 BEGIN
  UPDATE feeds SET unread = unread - 1 WHERE id = OLD.feed_id;
END;
CREATE TRIGGER items_unread_update AFTER UPDATE OF read, feed_id ON items
WHEN OLD.read IS NOT NEW.read OR OLD.feed_id IS NOT NEW.feed_id BEGIN
  UPDATE feeds SET unread = unread - 1 WHERE id = OLD.feed_id AND OLD.read = 0;
  UPDATE feeds SET unread = unread + 1 WHERE id = NEW.feed_id AND NEW.read = 0;
END;

CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
  DELETE FROM items_fts WHERE rowid = OLD.id;
END;
`;

/**
 * Version 3 (the reading experience, issue 9; version 2 is the core worktree's):
 * - feeds: a title of the user's own (the parser keeps writing `title`), notifications, images
 *   allow list;
 * - items: podcast details, and the mute filter that matched (muted_hide = 1 keeps it out of
 *   the river and search; a literal column so the river's filter stays one comparison);
 * - mute_filters and saved_searches;
 * - pub_key falls back to `updated` for items without `published` (an Atom entry with only
 *   <updated> sorted as the oldest item in a fetch).
 */
const V3 = `
ALTER TABLE feeds ADD COLUMN custom_title TEXT;
ALTER TABLE feeds ADD COLUMN notify INTEGER NOT NULL DEFAULT 0;
ALTER TABLE feeds ADD COLUMN load_images INTEGER NOT NULL DEFAULT 0;

ALTER TABLE items ADD COLUMN podcast TEXT;
ALTER TABLE items ADD COLUMN muted_by TEXT;
ALTER TABLE items ADD COLUMN muted_hide INTEGER NOT NULL DEFAULT 0;

CREATE TABLE mute_filters (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  feed_id INTEGER REFERENCES feeds(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('keyword', 'regex')),
  pattern TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('hide', 'markRead')),
  created_at INTEGER NOT NULL
);

CREATE TABLE saved_searches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  query TEXT NOT NULL,
  scope TEXT NOT NULL DEFAULT '{"kind":"all"}',
  created_at INTEGER NOT NULL
);

UPDATE items SET pub_key = IFNULL(CAST(ROUND((julianday(updated) - 2440587.5) * 86400000) AS INTEGER), 0)
WHERE published IS NULL AND updated IS NOT NULL;
`;

/**
 * v4: when an item really arrived. A backlog places items in the river by their own dates
 * (seen_at, docs/decisions/0004), so seen_at is no longer "first seen": retention counts from
 * arrived_at (older rows have none: their seen_at was the arrival).
 */
const V4 = `
ALTER TABLE items ADD COLUMN arrived_at INTEGER;
CREATE INDEX items_retention ON items(COALESCE(arrived_at, seen_at)) WHERE starred = 0;
`;

/**
 * v5 (issue 32): reading on other devices. The app password's account lives in the reader's own
 * database, so a backup (which copies the database) carries it: one row (the reader has one
 * user), with only slow hashes of the password and of the Fever key derived from it, and the
 * logins made with it as hashes of their tokens (src/sync/account.ts; src/backup/secret-columns.ts
 * names the secret columns). items_arrival serves the sync APIs' "arrived since" (ot/nt) filters:
 * arrival, not the river's back-dated seen_at, is what a phone's last sync time compares with;
 * items_hidden counts what mute filters hid without reading every row (Fever's total_items).
 */
const V5 = `
CREATE TABLE sync_account (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  enabled INTEGER NOT NULL DEFAULT 0,
  user_name TEXT,
  password_hash TEXT,
  fever_key_hash TEXT,
  password_set_at INTEGER
);
CREATE TABLE sync_sessions (
  token_hash TEXT PRIMARY KEY,
  api TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX items_arrival ON items(COALESCE(arrived_at, seen_at));
CREATE INDEX items_hidden ON items(id) WHERE muted_hide = 1;
`;

/**
 * v6 (issue 35, reading as a habit):
 * - feeds.full_text: the feed's items open in the reader view (the article, fetched and
 *   extracted), not the feed's own text;
 * - fulltext_cache: articles read for the reader view, one per item, bounded by size (the least
 *   recently used go first: src/store/fulltext.ts);
 * - playback: where each podcast or video episode was left, and whether it was played, kept with
 *   the reader's other state (the renderer's localStorage is one window's memory, not the app's).
 */
const V6 = `
ALTER TABLE feeds ADD COLUMN full_text INTEGER NOT NULL DEFAULT 0;

CREATE TABLE fulltext_cache (
  item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
  -- where the article was read from, after redirects (its relative links resolve against it)
  url TEXT NOT NULL,
  title TEXT,
  byline TEXT,
  site_name TEXT,
  content TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  fetched_at INTEGER NOT NULL,
  used_at INTEGER NOT NULL
);
CREATE INDEX fulltext_cache_used ON fulltext_cache(used_at);

CREATE TABLE playback (
  item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
  -- the enclosure (or media file) played
  url TEXT NOT NULL,
  position_sec REAL NOT NULL DEFAULT 0,
  duration_sec REAL,
  played INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);
`;

export const STORE_MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: V1 },
  { version: 2, sql: V2, rebuildsTables: true },
  { version: 3, sql: V3 },
  { version: 4, sql: V4 },
  { version: 5, sql: V5 },
  { version: 6, sql: V6 },
];
