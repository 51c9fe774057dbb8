/**
 * The ONE global keyboard handler: every key of src/app/shortcuts.ts, read through KeyResolver,
 * run by runCommand. Keys typed into fields, and keys with Ctrl/Alt/Meta, are left alone (the
 * browser's and the system's shortcuts stay theirs). The desktop shell's menu and tray send the
 * same commands as 'shell.command'. Mounted once in App.tsx; also shows the `?` help sheet.
 */
import { Suspense, useEffect, useRef, useState } from 'react';
import { getClient } from '../../api/client';
import { lazyView } from '../../components/lazy-view';
import { useAppStore } from '../../store/context';
import { commandAvailable, runCommand } from './commands';
import { isTypingTarget, KeyResolver } from './key-resolver';
import './keyboard.css';

const ShortcutsHelp = lazyView('The list of shortcuts', () =>
  import('./ShortcutsHelp').then((m) => m.ShortcutsHelp),
);

function openLink(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

export function KeyboardShortcuts() {
  const store = useAppStore();
  const [helpOpen, setHelpOpen] = useState(false);
  const helpRef = useRef(helpOpen);
  helpRef.current = helpOpen;

  useEffect(() => {
    const resolver = new KeyResolver();
    const ctx = { state: store.getState, openHelp: () => setHelpOpen(true), openLink };
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target)) {
        resolver.reset();
        return;
      }
      // The narrow window's drawer is open: the page behind it is inert, and so are its keys
      // (j would move a selection nobody can see); Escape closes the drawer first.
      if (document.querySelector('main.main')?.hasAttribute('inert')) return;
      // A dialog of the app (the help sheet, a confirmation) keeps its keys; Escape closes it there.
      if ((event.target as Element | null)?.closest?.('dialog, [role="dialog"]') || helpRef.current) return;
      const target = event.target as Element | null;
      // Enter and Space on a button or link are that control's own.
      if (
        (event.key === 'Enter' || event.key === ' ') &&
        target?.closest?.('button, a, summary, select, [role="button"]')
      ) {
        return;
      }
      // Arrow keys inside the feed tree (roving tabindex), a slider or a list box belong to them.
      if (
        event.key.startsWith('Arrow') &&
        target?.closest?.('[role="tree"], [role="listbox"], [role="menu"], input, select, video, audio')
      )
        return;
      // Caps Lock on: "J" without Shift is still j (Shift+A stays "A").
      const key = event.key.length === 1 && !event.shiftKey ? event.key.toLowerCase() : event.key;
      const result = resolver.press(key, performance.now());
      if (result.kind === 'none') return;
      if (result.kind === 'command' && !commandAvailable(result.command, store.getState())) return;
      event.preventDefault();
      if (result.kind === 'command') void runCommand(result.command, ctx);
    };
    document.addEventListener('keydown', onKey);
    const off = getClient().on('shell.command', ({ command }) => void runCommand(command, ctx));
    return () => {
      document.removeEventListener('keydown', onKey);
      off();
    };
  }, [store]);

  return helpOpen ? (
    <Suspense fallback={null}>
      <ShortcutsHelp onClose={() => setHelpOpen(false)} />
    </Suspense>
  ) : null;
}
