/**
 * `c` opens the composer (shortcuts.ts: composer.open), and so does the desktop shell's "New post"
 * (the tray and the menu send 'shell.command'). A minimal document-level listener kept inside this
 * feature until the global keyboard handler (issue 9) takes the key over: it ignores keys typed
 * into fields and keys with modifiers, so it never steals typing.
 */
import { useEffect } from 'react';
import { SHORTCUTS } from '../../../../src/app/shortcuts';
import { getClient } from '../../api/client';
import { useApp } from '../../store/context';

const KEYS = new Set(SHORTCUTS.find((s) => s.command === 'composer.open')?.keys ?? ['c']);

/** True when the key went to something that takes text (or a dialog is already open). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color'].includes(type);
  }
  return target.closest('[role="dialog"]') !== null;
}

export function useComposerKey(): void {
  const setOpen = useApp((s) => s.setComposerOpen);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
      if (!KEYS.has(e.key) || isTypingTarget(e.target)) return;
      e.preventDefault();
      setOpen(true);
    };
    document.addEventListener('keydown', onKey);
    const off = getClient().on('shell.command', ({ command }) => {
      if (command === 'composer.open') setOpen(true);
    });
    return () => {
      document.removeEventListener('keydown', onKey);
      off();
    };
  }, [setOpen]);
}
