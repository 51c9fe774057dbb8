/**
 * From key presses to commands, read from the one shortcut table (src/app/shortcuts.ts). Pure and
 * DOM-free so it is tested in Node: the handler feeds it each keydown's `key` and a time, and it
 * answers a command, "wait for the second key" (the `g` of `g a`), or nothing.
 */
import { type CommandId, SHORTCUTS, type Shortcut } from '../../../../src/app/shortcuts';

/** The second key of a sequence must come within this long of the first. */
export const SEQUENCE_MS = 1000;

export type Resolution = { kind: 'command'; command: CommandId } | { kind: 'pending' } | { kind: 'none' };

export class KeyResolver {
  private readonly single = new Map<string, CommandId>();
  private readonly sequences = new Map<string, Map<string, CommandId>>();
  private pending: { first: string; at: number } | null = null;

  constructor(shortcuts: readonly Shortcut[] = SHORTCUTS) {
    for (const shortcut of shortcuts) {
      for (const key of shortcut.keys) {
        // " " is the Space key itself, not a separator.
        const parts = key === ' ' ? [' '] : key.split(' ');
        if (parts.length === 1) this.single.set(parts[0]!, shortcut.command);
        else {
          const [first, second] = parts as [string, string];
          const next = this.sequences.get(first) ?? new Map<string, CommandId>();
          next.set(second, shortcut.command);
          this.sequences.set(first, next);
        }
      }
    }
  }

  /** `key` is KeyboardEvent.key; `now` is milliseconds (performance.now or Date.now). */
  press(key: string, now: number): Resolution {
    const pending = this.pending;
    this.pending = null;
    if (pending && now - pending.at <= SEQUENCE_MS) {
      const command = this.sequences.get(pending.first)?.get(key);
      if (command) return { kind: 'command', command };
      // Not a known second key: it counts as a key of its own (below).
    }
    if (this.sequences.has(key)) {
      this.pending = { first: key, at: now };
      return { kind: 'pending' };
    }
    const command = this.single.get(key);
    return command ? { kind: 'command', command } : { kind: 'none' };
  }

  /** Forget a half-typed sequence (focus moved to a field, Escape). */
  reset(): void {
    this.pending = null;
  }
}

/** Where typed keys belong to the field, not to the app's shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as { tagName?: string; isContentEditable?: boolean; type?: string } | null;
  if (!el?.tagName) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (el.type ?? 'text').toLowerCase();
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
}
