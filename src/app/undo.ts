/**
 * The core's undo log (issue 17, point 9; docs/decisions/0005-undo.md): a bulk removal records
 * how to put back exactly what it took, and hands the UI a ticket; `undo(ticket)` runs it once.
 * Held in memory for the session: the change itself is done for real at once, so quitting or a
 * crash never leaves anything half-deleted; it only ends the chance to undo.
 */
import { fail, type Result, tidingsError } from '../common/errors.ts';
import type { UndoTicket } from './api.ts';

/** Older entries than this many are dropped (the UI only offers the last one anyway). */
const KEEP = 20;

interface Entry {
  restore(): Result<true>;
}

export class UndoLog {
  private readonly entries = new Map<number, Entry>();
  private nextId = 1;

  record(message: string, entry: Entry): UndoTicket {
    const undoId = this.nextId++;
    this.entries.set(undoId, entry);
    for (const id of this.entries.keys()) {
      if (this.entries.size <= KEEP) break;
      this.entries.delete(id);
    }
    return { undoId, message };
  }

  undo(undoId: number): Result<true> {
    const entry = this.entries.get(undoId);
    if (!entry) return fail(tidingsError('undo.expired', 'That change can no longer be undone.', { undoId }));
    this.entries.delete(undoId);
    return entry.restore();
  }
}
