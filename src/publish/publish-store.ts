/**
 * publish.db: the writer's own SQLite file beside the reader's (posts are not feed items).
 * Posts, the durable outbox (one row per save or ping still owed), the hosted documents, the
 * draft and the publish settings. A post and its first tasks are written in one transaction, so
 * after a crash the post is either absent (the caller was told it failed) or owed its publishing.
 * Tasks are claimed with a lease, so two processes on one data folder (the app and `tidings
 * post`) never run the same task twice.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { type Migration, openDatabase, transaction } from '../store/sqlite.ts';
import type { PostContent, StoredPost } from './post.ts';

/** publish.db's schema steps (the backup refuses a publish.db further along than these). */
export const PUBLISH_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE posts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guid TEXT NOT NULL UNIQUE,
        content TEXT NOT NULL,
        rev INTEGER NOT NULL DEFAULT 1,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE tasks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        post_id INTEGER,
        rev INTEGER NOT NULL,
        kind TEXT NOT NULL,
        target TEXT NOT NULL,
        endpoint TEXT NOT NULL DEFAULT '',
        url TEXT NOT NULL DEFAULT '',
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at INTEGER NOT NULL,
        last_at INTEGER,
        message TEXT,
        public_url TEXT,
        lease_until INTEGER NOT NULL DEFAULT 0,
        lease_owner INTEGER
      );
      CREATE INDEX tasks_due ON tasks (state, next_at);
      CREATE INDEX tasks_post ON tasks (post_id, rev);
      CREATE TABLE documents (
        path TEXT PRIMARY KEY,
        body BLOB NOT NULL,
        content_type TEXT NOT NULL,
        etag TEXT NOT NULL,
        modified_at INTEGER NOT NULL
      );
      CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
];

export type TaskKind = 'save' | 'ping';
export type TaskState = 'pending' | 'done' | 'failed';

export interface TaskRow {
  id: number;
  postId: number | null;
  rev: number;
  kind: TaskKind;
  /** save: hosting | folder | saveRss; ping: cloud | weblogUpdates | httpGet | rssPing. */
  target: string;
  endpoint: string;
  /** ping: the feed URL pinged. */
  url: string;
  state: TaskState;
  attempts: number;
  nextAt: number;
  lastAt: number | null;
  message: string | null;
  publicUrl: string | null;
  leaseUntil: number;
}

export interface NewTask {
  postId: number | null;
  rev: number;
  kind: TaskKind;
  target: string;
  endpoint?: string;
  url?: string;
}

export interface StoredDocument {
  path: string;
  body: Uint8Array;
  contentType: string;
  etag: string;
  modifiedAt: number;
}

type Row = Record<string, unknown>;

export class PublishStore {
  readonly db: DatabaseSync;

  constructor(path: string) {
    this.db = openDatabase(path, PUBLISH_MIGRATIONS);
  }

  /** Statements are compiled once (the outbox asks the same few questions for every post). */
  private statements = new Map<string, StatementSync>();
  private sql(text: string): StatementSync {
    let st = this.statements.get(text);
    if (!st) {
      st = this.db.prepare(text);
      this.statements.set(text, st);
    }
    return st;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  // ---- posts

  insertPost(
    guid: string,
    content: PostContent,
    now: number,
    tasks: Omit<NewTask, 'postId' | 'rev'>[],
  ): StoredPost {
    return transaction(this.db, () => {
      const r = this.sql(
        'INSERT INTO posts (guid, content, rev, created_at, updated_at) VALUES (?, ?, 1, ?, ?)',
      ).run(guid, JSON.stringify(content), now, now);
      const id = Number(r.lastInsertRowid);
      for (const t of tasks) this.addTask({ ...t, postId: id, rev: 1 }, now);
      return this.getPost(id)!;
    });
  }

  /** A new revision: pending tasks of older revisions are dropped (the new save covers them). */
  updatePost(
    id: number,
    content: PostContent,
    now: number,
    tasks: Omit<NewTask, 'postId' | 'rev'>[],
  ): StoredPost | null {
    return transaction(this.db, () => {
      const post = this.getPost(id);
      if (!post) return null;
      const rev = post.rev + 1;
      this.sql('UPDATE posts SET content = ?, rev = ?, updated_at = ? WHERE id = ?').run(
        JSON.stringify(content),
        rev,
        now,
        id,
      );
      this.sql("DELETE FROM tasks WHERE post_id = ? AND state = 'pending'").run(id);
      for (const t of tasks) this.addTask({ ...t, postId: id, rev }, now);
      return this.getPost(id);
    });
  }

  /** Removes the post and its tasks; `tasks` (post-less) rebuild the feed without it. */
  deletePost(id: number, now: number, tasks: Omit<NewTask, 'postId' | 'rev'>[]): boolean {
    return transaction(this.db, () => {
      const r = this.sql('DELETE FROM posts WHERE id = ?').run(id);
      if (Number(r.changes) === 0) return false;
      this.sql('DELETE FROM tasks WHERE post_id = ?').run(id);
      for (const t of tasks) this.addTask({ ...t, postId: null, rev: 0 }, now);
      return true;
    });
  }

  getPost(id: number): StoredPost | null {
    const row = this.sql('SELECT * FROM posts WHERE id = ?').get(id) as Row | undefined;
    return row ? toPost(row) : null;
  }

  /** Newest first. */
  listPosts(limit = -1): StoredPost[] {
    return (
      this.sql('SELECT * FROM posts ORDER BY created_at DESC, id DESC LIMIT ?').all(limit) as Row[]
    ).map(toPost);
  }

  // ---- outbox

  addTask(t: NewTask, now: number): number {
    const r = this.sql(
      'INSERT INTO tasks (post_id, rev, kind, target, endpoint, url, next_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(t.postId, t.rev, t.kind, t.target, t.endpoint ?? '', t.url ?? '', now);
    return Number(r.lastInsertRowid);
  }

  /**
   * Takes up to `limit` due tasks for this runner with a lease: a task another process holds is
   * skipped until its lease ends (a crashed holder's tasks come back after it).
   */
  claimDue(
    now: number,
    leaseMs: number,
    limit: number,
    handles: ((t: TaskRow) => boolean) | undefined = undefined,
    owner: number = process.pid,
  ): TaskRow[] {
    const due =
      "SELECT * FROM tasks WHERE state = 'pending' AND next_at <= ? AND lease_until <= ? ORDER BY id";
    // Without a filter SQL does the limit; a filtering runner (the CLI) looks at every due task.
    const rows = handles
      ? (this.sql(due).all(now, now) as Row[]).map(toTask).filter(handles).slice(0, limit)
      : (this.sql(`${due} LIMIT ?`).all(now, now, limit) as Row[]).map(toTask);
    // Nothing due (the common case): no write transaction at all.
    if (rows.length === 0) return [];
    // Leased only if still pending and free: another process may have taken it since we looked.
    const lease = this.sql(
      "UPDATE tasks SET lease_until = ?, lease_owner = ? WHERE id = ? AND state = 'pending' AND lease_until <= ?",
    );
    return transaction(this.db, () =>
      rows
        .filter((t) => Number(lease.run(now + leaseMs, owner, t.id, now).changes) === 1)
        .map((t) => ({ ...t, leaseUntil: now + leaseMs })),
    );
  }

  /**
   * Leases held by processes that no longer run (a kill -9 mid-publish) are released at once,
   * so a restart does not wait the lease out.
   */
  releaseDeadLeases(now: number, alive: (pid: number) => boolean): void {
    const owners = this.sql(
      "SELECT DISTINCT lease_owner AS pid FROM tasks WHERE state = 'pending' AND lease_until > ? AND lease_owner IS NOT NULL",
    ).all(now) as { pid: number }[];
    for (const { pid } of owners) {
      if (!alive(pid))
        this.sql('UPDATE tasks SET lease_until = 0 WHERE lease_owner = ? AND lease_until > ?').run(pid, now);
    }
  }

  /** When the next pending task (of those `handles` accepts) falls due (null: none). */
  nextDueAt(handles?: (t: TaskRow) => boolean): number | null {
    if (!handles) {
      const row = this.sql(
        "SELECT MIN(MAX(next_at, lease_until)) AS at FROM tasks WHERE state = 'pending'",
      ).get() as { at: number | null };
      return row.at;
    }
    const rows = (this.sql("SELECT * FROM tasks WHERE state = 'pending'").all() as Row[]).map(toTask);
    const due = rows.filter(handles).map((t) => Math.max(t.nextAt, t.leaseUntil));
    return due.length ? Math.min(...due) : null;
  }

  /**
   * Leases the other pings due now that say the same thing as `ping` (same kind, sink and feed
   * URL) for the same holder: one request covers them all (see OutboxRunner). Returns their ids.
   */
  leaseSamePings(ping: TaskRow, now: number, leaseMs: number, owner: number = process.pid): number[] {
    const same = this.sql(
      "SELECT id FROM tasks WHERE kind = 'ping' AND target = ? AND endpoint = ? AND url = ? AND state = 'pending' AND next_at <= ? AND lease_until <= ? AND id <> ?",
    ).all(ping.target, ping.endpoint, ping.url, now, now, ping.id) as { id: number }[];
    if (same.length === 0) return [];
    const lease = this.sql(
      "UPDATE tasks SET lease_until = ?, lease_owner = ? WHERE id = ? AND state = 'pending' AND lease_until <= ?",
    );
    return transaction(this.db, () =>
      same.filter((t) => Number(lease.run(now + leaseMs, owner, t.id, now).changes) === 1).map((t) => t.id),
    );
  }

  /** The pings `settledId` covered take its outcome: done with its answer, or retried with it. */
  settleLike(settledId: number, covered: readonly number[]): void {
    if (covered.length === 0) return;
    const copy = this.sql(
      `UPDATE tasks SET state = s.state, attempts = tasks.attempts + 1, last_at = s.last_at,
         message = s.message, next_at = s.next_at, lease_until = 0
       FROM (SELECT state, last_at, message, next_at FROM tasks WHERE id = ?) AS s
       WHERE tasks.id = ? AND tasks.state = 'pending'`,
    );
    transaction(this.db, () => {
      for (const id of covered) copy.run(settledId, id);
    });
  }

  /** Marks a task done and adds the tasks it leads to (a save's pings) in the same transaction. */
  completeTask(
    id: number,
    now: number,
    message: string,
    publicUrl: string | null,
    follow: NewTask[],
  ): boolean {
    return transaction(this.db, () => {
      const r = this.sql(
        "UPDATE tasks SET state = 'done', attempts = attempts + 1, last_at = ?, message = ?, public_url = ?, lease_until = 0 WHERE id = ? AND state = 'pending'",
      ).run(now, message, publicUrl, id);
      if (Number(r.changes) === 0) return false; // superseded by an edit or a delete meanwhile
      for (const t of follow) this.addTask(t, now);
      return true;
    });
  }

  failTask(id: number, now: number, message: string, nextAt: number | null): void {
    this.sql(
      "UPDATE tasks SET state = ?, attempts = attempts + 1, last_at = ?, message = ?, next_at = COALESCE(?, next_at), lease_until = 0 WHERE id = ? AND state = 'pending'",
    ).run(nextAt === null ? 'failed' : 'pending', now, message, nextAt, id);
  }

  /**
   * New ping settings apply to pings still owed: cloud pings go to the cloud now chosen, and pings
   * to sinks no longer listed are dropped.
   */
  repointPings(cloudEndpoint: string, sinks: readonly { kind: string; url: string }[]): void {
    transaction(this.db, () => {
      this.sql(
        "UPDATE tasks SET endpoint = ? WHERE kind = 'ping' AND target = 'cloud' AND state <> 'done'",
      ).run(cloudEndpoint);
      const owed = this.sql(
        "SELECT id, target, endpoint FROM tasks WHERE kind = 'ping' AND target <> 'cloud' AND state <> 'done'",
      ).all() as { id: number; target: string; endpoint: string }[];
      const drop = this.sql('DELETE FROM tasks WHERE id = ?');
      for (const t of owed) {
        if (!sinks.some((s) => s.kind === t.target && s.url === t.endpoint)) drop.run(t.id);
      }
    });
  }

  hasOwedHostingSave(): boolean {
    return (
      this.sql(
        "SELECT 1 FROM tasks WHERE kind = 'save' AND target = 'hosting' AND state = 'pending' LIMIT 1",
      ).get() !== undefined
    );
  }

  /** Drops post-less rebuilds not yet running (a new one is about to cover them). */
  dropOwedRebuilds(now: number): void {
    this.sql(
      "DELETE FROM tasks WHERE post_id IS NULL AND kind = 'save' AND state = 'pending' AND lease_until <= ?",
    ).run(now);
  }

  /** Tasks of a post's current revision, in order. */
  tasksOf(postId: number, rev: number): TaskRow[] {
    return (
      this.sql('SELECT * FROM tasks WHERE post_id = ? AND rev = ? ORDER BY id').all(postId, rev) as Row[]
    ).map(toTask);
  }

  getTask(id: number): TaskRow | null {
    const row = this.sql('SELECT * FROM tasks WHERE id = ?').get(id) as Row | undefined;
    return row ? toTask(row) : null;
  }

  /** Settings changed (a new target, a new cloud): failed tasks get another chance now. */
  retryFailed(now: number): void {
    this.sql("UPDATE tasks SET state = 'pending', next_at = ?, attempts = 0 WHERE state = 'failed'").run(now);
  }

  // ---- hosted documents

  putDocument(doc: StoredDocument): void {
    this.sql(
      `INSERT INTO documents (path, body, content_type, etag, modified_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET body = excluded.body, content_type = excluded.content_type,
           etag = excluded.etag, modified_at = excluded.modified_at WHERE documents.etag <> excluded.etag`,
    ).run(doc.path, doc.body, doc.contentType, doc.etag, doc.modifiedAt);
  }

  /** A whole site in one transaction: readers never see the RSS of one save and the Atom of another. */
  putDocuments(docs: readonly Omit<StoredDocument, 'modifiedAt'>[], now: number): void {
    transaction(this.db, () => {
      for (const d of docs) this.putDocument({ ...d, modifiedAt: now });
    });
  }

  getDocument(path: string): StoredDocument | null {
    const row = this.sql('SELECT * FROM documents WHERE path = ?').get(path) as Row | undefined;
    if (!row) return null;
    return {
      path: String(row.path),
      body: row.body as Uint8Array,
      contentType: String(row.content_type),
      etag: String(row.etag),
      modifiedAt: Number(row.modified_at),
    };
  }

  // ---- settings and draft

  getValue<T>(key: string, fallback: T): T {
    const row = this.sql('SELECT value FROM kv WHERE key = ?').get(key) as { value: string } | undefined;
    if (!row) return fallback;
    try {
      return JSON.parse(row.value) as T;
    } catch {
      return fallback;
    }
  }

  setValue(key: string, value: unknown): void {
    if (value === null || value === undefined) {
      this.sql('DELETE FROM kv WHERE key = ?').run(key);
      return;
    }
    this.sql(
      'INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, JSON.stringify(value));
  }
}

function toPost(row: Row): StoredPost {
  const content = JSON.parse(String(row.content)) as PostContent;
  return {
    ...content,
    id: Number(row.id),
    guid: String(row.guid),
    rev: Number(row.rev),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toTask(row: Row): TaskRow {
  return {
    id: Number(row.id),
    postId: row.post_id === null ? null : Number(row.post_id),
    rev: Number(row.rev),
    kind: row.kind as TaskKind,
    target: String(row.target),
    endpoint: String(row.endpoint),
    url: String(row.url),
    state: row.state as TaskState,
    attempts: Number(row.attempts),
    nextAt: Number(row.next_at),
    lastAt: row.last_at === null ? null : Number(row.last_at),
    message: row.message === null ? null : String(row.message),
    publicUrl: row.public_url === null ? null : String(row.public_url),
    leaseUntil: Number(row.lease_until),
  };
}
