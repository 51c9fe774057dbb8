/**
 * Files that cross the API in pieces (a backup made for download, a backup uploaded to restore):
 * each waits in the data folder's .transfers/ under an id the API hands out, is read or written
 * 2 MiB at a time as base64 (what JSON and IPC carry), and goes when it is discarded, after 30
 * minutes without use, when the app stops, or (left by a crash) when it starts again. Ids are looked up, never turned into paths.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../common/clock.ts';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { TRANSFER_PIECE_BYTES, type TransferChunk } from './api.ts';

export const TRANSFER_DIR = '.transfers';
export const PIECE_BYTES = TRANSFER_PIECE_BYTES;
const IDLE_MS = 30 * 60 * 1000;

interface Transfer {
  path: string;
  kind: 'download' | 'upload';
  size: number;
  /** Uploads: bytes written so far. */
  received: number;
  usedAt: number;
}

const unknownTransfer = () =>
  fail<never>(
    tidingsError(
      'backup.noTransfer',
      'That transfer is over (it was finished, cancelled or left too long): start again.',
    ),
  );

export class Transfers {
  private readonly dir: string;
  private readonly clock: Clock;
  private readonly all = new Map<string, Transfer>();

  constructor(dataDir: string, clock: Clock) {
    this.dir = join(dataDir, TRANSFER_DIR);
    this.clock = clock;
  }

  /** What a previous run left (it stopped mid-transfer) is of no use: the app clears it as it starts. */
  clearLeftovers(): void {
    if (this.all.size === 0) rmSync(this.dir, { recursive: true, force: true });
  }

  /** A new file to write a download into; `ready` makes it readable once written. */
  newDownload(): { id: string; path: string; ready(): Promise<void> } {
    this.expire();
    mkdirSync(this.dir, { recursive: true });
    const id = randomUUID();
    const path = join(this.dir, `${id}.download`);
    return {
      id,
      path,
      ready: async () => {
        this.all.set(id, {
          path,
          kind: 'download',
          size: (await stat(path)).size,
          received: 0,
          usedAt: this.clock.now(),
        });
      },
    };
  }

  async read(id: string, offset: number): Promise<Result<TransferChunk>> {
    const t = this.get(id, 'download');
    if (!t) return unknownTransfer();
    if (!Number.isSafeInteger(offset) || offset < 0 || offset > t.size) {
      return fail(
        tidingsError('backup.badOffset', `There is nothing at ${offset} in a file of ${t.size} bytes.`),
      );
    }
    const length = Math.min(PIECE_BYTES, t.size - offset);
    const buf = Buffer.alloc(length);
    const handle = await open(t.path, 'r');
    try {
      await handle.read(buf, 0, length, offset);
    } finally {
      await handle.close();
    }
    const next = offset + length;
    return ok({ dataBase64: buf.toString('base64'), nextOffset: next >= t.size ? null : next });
  }

  startUpload(size: number): Result<{ transferId: string }> {
    this.expire();
    if (!Number.isSafeInteger(size) || size <= 0) {
      return fail(tidingsError('backup.badSize', 'An upload needs its size in bytes, more than 0.'));
    }
    mkdirSync(this.dir, { recursive: true });
    const id = randomUUID();
    this.all.set(id, {
      path: join(this.dir, `${id}.upload`),
      kind: 'upload',
      size,
      received: 0,
      usedAt: this.clock.now(),
    });
    return ok({ transferId: id });
  }

  /** Pieces come in order: each one starts where the last ended. */
  async write(id: string, offset: number, dataBase64: string): Promise<Result<{ received: number }>> {
    const t = this.get(id, 'upload');
    if (!t) return unknownTransfer();
    const bytes = Buffer.from(dataBase64, 'base64');
    if (offset !== t.received) {
      return fail(
        tidingsError(
          'backup.uploadOrder',
          `The upload expected the piece at ${t.received}, not at ${offset}.`,
        ),
      );
    }
    if (bytes.length > PIECE_BYTES || t.received + bytes.length > t.size) {
      return fail(
        tidingsError('backup.uploadSize', 'That piece would make the upload longer than its size.'),
      );
    }
    const handle = await open(t.path, t.received === 0 ? 'w' : 'a');
    try {
      await handle.write(bytes);
    } finally {
      await handle.close();
    }
    t.received += bytes.length;
    return ok({ received: t.received });
  }

  /** The uploaded file, once every byte of it came. */
  completeUpload(id: string): Result<string> {
    const t = this.get(id, 'upload');
    if (!t) return unknownTransfer();
    if (t.received !== t.size) {
      return fail(
        tidingsError(
          'backup.uploadIncomplete',
          `Only ${t.received} of the backup's ${t.size} bytes arrived: upload it again.`,
        ),
      );
    }
    return ok(t.path);
  }

  async discard(id: string): Promise<void> {
    const t = this.all.get(id);
    if (!t) return;
    this.all.delete(id);
    await rm(t.path, { force: true });
  }

  /** Forgets this app's transfers (another process's on the same folder are not its to remove). */
  async close(): Promise<void> {
    for (const id of [...this.all.keys()]) await this.discard(id);
  }

  private get(id: string, kind: Transfer['kind']): Transfer | null {
    this.expire();
    const t = this.all.get(id);
    if (!t || t.kind !== kind) return null;
    t.usedAt = this.clock.now();
    return t;
  }

  private expire(): void {
    const now = this.clock.now();
    for (const [id, t] of this.all) {
      if (now - t.usedAt > IDLE_MS) void this.discard(id);
    }
  }
}
