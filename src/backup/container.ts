/**
 * The backup file: one SQLite database (docs/backup.md, "Layout"). Its header says what it is
 * (application_id "TDNG", user_version = the format version) so both can be read before SQLite
 * opens it; a `manifest` table says what the backup holds, a `parts` table lists each part with
 * its size and SHA-256, and `chunks` hold the parts' bytes, 1 MiB at a time, deflated where that
 * helps. Written under a temporary name and renamed when complete, so a file with the final name
 * is never half written; read part by part, each checked against its size and hash before use.
 */
import { createHash } from 'node:crypto';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';

export const FORMAT_NAME = 'tidings-backup';
/** Raised whenever a backup holds something an older Tidings could not restore right. */
export const FORMAT_VERSION = 1;
/** "TDNG" in the SQLite header's application id. */
export const APPLICATION_ID = 0x54444e47;
export const CHUNK_BYTES = 1024 * 1024;
/** How a chunk's bytes are kept. */
const STORED = 0;
const DEFLATED = 1;
/** Deflate's fastest levels shrink SQLite pages of text about as well as the slow ones. */
const DEFLATE_LEVEL = 1;
/** Chunks deflated (or inflated) at once, on libuv's threads, while the previous ones are written. */
const IN_FLIGHT = 4;

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

export type PartKind = 'sqlite' | 'file';

export interface PartRecord {
  name: string;
  kind: PartKind;
  size: number;
  sha256: string;
  chunks: number;
  /** A database's schema version (PRAGMA user_version); null for files. */
  schemaVersion: number | null;
}

const SCHEMA = `
CREATE TABLE manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE parts (
  name TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  chunks INTEGER NOT NULL,
  schema_version INTEGER
);
CREATE TABLE chunks (
  part TEXT NOT NULL,
  seq INTEGER NOT NULL,
  method INTEGER NOT NULL,
  size INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (part, seq)
);`;

/** Runs `work` over items with at most `limit` running at once, handing results to `take` in order. */
async function pipelined<T, R>(
  next: () => Promise<T | null>,
  work: (item: T) => Promise<R>,
  take: (result: R) => void | Promise<void>,
  limit = IN_FLIGHT,
): Promise<void> {
  const running: Promise<R>[] = [];
  for (;;) {
    const item = await next();
    if (item !== null) {
      const job = work(item);
      // Awaited below in order; until then a failure must not count as unhandled.
      job.catch(() => {});
      running.push(job);
    }
    if (running.length >= limit || (item === null && running.length > 0)) await take(await running.shift()!);
    if (item === null && running.length === 0) return;
  }
}

export class ContainerWriter {
  private readonly db: DatabaseSync;
  private readonly path: string;
  private readonly parts: PartRecord[] = [];

  private constructor(path: string) {
    this.path = path;
    this.db = new DatabaseSync(path);
    // Nothing to journal: a file that is not finished is deleted, never used.
    this.db.exec('PRAGMA journal_mode = OFF');
    this.db.exec('PRAGMA synchronous = OFF');
    this.db.exec('PRAGMA page_size = 65536');
    this.db.exec(SCHEMA);
    this.db.exec('BEGIN');
  }

  /** A new container at `path` (which must not exist: the caller picks a temporary name). */
  static create(path: string): ContainerWriter {
    return new ContainerWriter(path);
  }

  /** Adds a file's bytes as a part, chunk by chunk (the file is never read whole). */
  async addPart(
    name: string,
    kind: PartKind,
    file: string,
    schemaVersion: number | null,
  ): Promise<PartRecord> {
    const insert = this.db.prepare(
      'INSERT INTO chunks (part, seq, method, size, data) VALUES (?, ?, ?, ?, ?)',
    );
    const hash = createHash('sha256');
    let size = 0;
    let seq = 0;
    const handle: FileHandle = await open(file, 'r');
    try {
      await pipelined(
        async () => {
          const buf = Buffer.allocUnsafe(CHUNK_BYTES);
          const { bytesRead } = await handle.read(buf, 0, CHUNK_BYTES, null);
          if (bytesRead === 0) return null;
          const chunk = buf.subarray(0, bytesRead);
          hash.update(chunk);
          size += bytesRead;
          return chunk;
        },
        async (chunk) => {
          const packed = await deflate(chunk, { level: DEFLATE_LEVEL });
          // Already-compressed media does not shrink: kept as it is.
          return packed.length < chunk.length
            ? { method: DEFLATED, size: chunk.length, data: packed }
            : { method: STORED, size: chunk.length, data: chunk };
        },
        (c) => {
          insert.run(name, seq++, c.method, c.size, c.data);
        },
      );
    } finally {
      await handle.close();
    }
    const record: PartRecord = { name, kind, size, sha256: hash.digest('hex'), chunks: seq, schemaVersion };
    this.parts.push(record);
    return record;
  }

  /** Writes the manifest and the parts list, and makes the file durable. */
  async finish(manifest: Record<string, unknown>): Promise<void> {
    const part = this.db.prepare(
      'INSERT INTO parts (name, kind, size, sha256, chunks, schema_version) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const p of this.parts) part.run(p.name, p.kind, p.size, p.sha256, p.chunks, p.schemaVersion);
    const entry = this.db.prepare('INSERT INTO manifest (key, value) VALUES (?, ?)');
    for (const [key, value] of Object.entries(manifest)) entry.run(key, JSON.stringify(value));
    this.db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
    this.db.exec(`PRAGMA user_version = ${FORMAT_VERSION}`);
    this.db.exec('COMMIT');
    this.db.close();
    // On libuv's threads: on a slow disk the sync of tens of MB would hold the app's event loop.
    const handle = await open(this.path, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  abort(): void {
    if (this.db.isOpen) this.db.close();
  }
}

const damaged = (what: string) =>
  tidingsError('backup.damaged', `This backup is damaged: ${what}. Use another copy of it.`);
const notBackup = () =>
  tidingsError(
    'backup.notBackup',
    'This file is not a Tidings backup (it was not made by `tidings backup` or Back up… in Settings).',
  );

export interface ContainerHeader {
  formatVersion: number;
  size: number;
}

/**
 * What the first 100 bytes say, before SQLite reads anything: a SQLite file, ours, of a format we
 * read, and as long as its header says (a copy cut short is refused here, by name).
 */
export async function readHeader(path: string): Promise<Result<ContainerHeader>> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    return fail(tidingsError('backup.unreadable', `Cannot read the backup: ${errnoReason(e)}.`));
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return fail(tidingsError('backup.unreadable', 'The backup is not a file.'));
    const head = Buffer.alloc(100);
    const { bytesRead } = await handle.read(head, 0, 100, 0);
    if (bytesRead < 100 || head.toString('latin1', 0, 16) !== 'SQLite format 3\0') return fail(notBackup());
    if (head.readUInt32BE(68) !== APPLICATION_ID) return fail(notBackup());
    const formatVersion = head.readUInt32BE(60);
    if (formatVersion > FORMAT_VERSION) {
      return fail(
        tidingsError(
          'backup.newer',
          `This backup was made by a newer Tidings (backup format ${formatVersion}; this one reads format ${FORMAT_VERSION} and older). Update Tidings, then restore it.`,
          { formatVersion },
        ),
      );
    }
    const pageSize = head.readUInt16BE(16) === 1 ? 65536 : head.readUInt16BE(16);
    const expected = pageSize * head.readUInt32BE(28);
    if (info.size < expected) {
      return fail(
        tidingsError(
          'backup.truncated',
          `This backup is cut short: it has ${info.size.toLocaleString('en-US')} of its ${expected.toLocaleString('en-US')} bytes (a copy or download that did not finish). Use a complete copy.`,
        ),
      );
    }
    return ok({ formatVersion, size: info.size });
  } finally {
    await handle.close();
  }
}

function errnoReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return e instanceof Error ? e.message : String(e);
}

export class ContainerReader {
  readonly manifest: Record<string, unknown>;
  readonly parts: PartRecord[];
  private readonly db: DatabaseSync;

  private constructor(db: DatabaseSync, manifest: Record<string, unknown>, parts: PartRecord[]) {
    this.db = db;
    this.manifest = manifest;
    this.parts = parts;
  }

  /** Opens a container whose header readHeader accepted; any SQLite trouble reads as damage. */
  static open(path: string): Result<ContainerReader> {
    let db: DatabaseSync | null = null;
    try {
      db = new DatabaseSync(path, { readOnly: true });
      const manifest: Record<string, unknown> = {};
      for (const row of db.prepare('SELECT key, value FROM manifest').all() as {
        key: string;
        value: string;
      }[]) {
        manifest[row.key] = JSON.parse(row.value);
      }
      const parts = (db.prepare('SELECT * FROM parts ORDER BY rowid').all() as Record<string, unknown>[]).map(
        (r): PartRecord => ({
          name: String(r.name),
          kind: r.kind as PartKind,
          size: Number(r.size),
          sha256: String(r.sha256),
          chunks: Number(r.chunks),
          schemaVersion: r.schema_version === null ? null : Number(r.schema_version),
        }),
      );
      return ok(new ContainerReader(db, manifest, parts));
    } catch (e) {
      db?.close();
      return fail(damaged(`its table of contents cannot be read (${e instanceof Error ? e.message : e})`));
    }
  }

  /**
   * Streams a part's bytes to `write` in order (null: only checks them), checking every chunk, the
   * size and the SHA-256 on the way: a damaged part is a failure that names it. An error of
   * `write` itself (a full disk) is thrown as it is: the backup is not to blame.
   */
  async readPart(
    part: PartRecord,
    write: ((bytes: Uint8Array) => Promise<void>) | null,
  ): Promise<Result<true>> {
    const hash = createHash('sha256');
    let size = 0;
    let seq = 0;
    let writeError: unknown = null;
    try {
      const rows = this.db
        .prepare('SELECT seq, method, size, data FROM chunks WHERE part = ? ORDER BY seq')
        .iterate(part.name) as Iterator<{ seq: number; method: number; size: number; data: Uint8Array }>;
      await pipelined(
        async () => {
          const next = rows.next();
          return next.done ? null : next.value;
        },
        async (row) => {
          if (row.seq !== seq++) throw new Error(`a piece of ${part.name} is missing`);
          if (row.method !== STORED && row.method !== DEFLATED) {
            throw new Error(`a piece of ${part.name} is packed in a way this Tidings does not know`);
          }
          // Never more than a chunk's worth: a crafted piece cannot unpack into gigabytes.
          const bytes =
            row.method === STORED
              ? row.data
              : await inflate(row.data, { maxOutputLength: CHUNK_BYTES }).catch(() => {
                  throw new Error(`a piece of ${part.name} cannot be unpacked`);
                });
          if (bytes.length !== row.size) throw new Error(`a piece of ${part.name} has the wrong length`);
          return bytes;
        },
        async (bytes) => {
          hash.update(bytes);
          size += bytes.length;
          try {
            await write?.(bytes);
          } catch (e) {
            writeError = e;
            throw e;
          }
        },
      );
    } catch (e) {
      if (writeError !== null) throw writeError;
      return fail(damaged(e instanceof Error ? e.message : String(e)));
    }
    if (seq !== part.chunks) return fail(damaged(`${part.name} has ${seq} of its ${part.chunks} pieces`));
    if (size !== part.size) return fail(damaged(`${part.name} has ${size} of its ${part.size} bytes`));
    if (hash.digest('hex') !== part.sha256) return fail(damaged(`${part.name} does not match its checksum`));
    return ok(true);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

/** The size of a file, or 0 when it is not there. */
export async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}
