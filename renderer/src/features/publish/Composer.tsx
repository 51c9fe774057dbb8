/**
 * The composer's always-mounted part: the open state and the window-wide file drop. The dialog
 * itself (ComposerDialog) is a chunk of its own, loaded once the river is on screen.
 */
import { Suspense } from 'react';
import { lazyView } from '../../components/lazy-view';
import { useApp } from '../../store/context';
import { useWindowFileDrop } from './useWindowFileDrop';

const ComposerDialog = lazyView('The composer', () =>
  import('./ComposerDialog').then((m) => m.ComposerDialog),
);

/**
 * Always mounted by the app: a file dropped anywhere on the window opens the composer with that
 * file attached (instead of the browser navigating away to the file). The `c` key and the shell's
 * "New post" reach it through the global keyboard handler (features/keyboard: composer.open).
 */
export function Composer() {
  const open = useApp((s) => s.composerOpen);
  const setOpen = useApp((s) => s.setComposerOpen);
  const { takePendingFile, attachRef } = useWindowFileDrop(() => setOpen(true));

  if (!open) return null;
  // No fallback: the chunk is usually loaded already, and otherwise arrives within a frame or two.
  return (
    <Suspense fallback={null}>
      <ComposerDialog takePendingFile={takePendingFile} attachRef={attachRef} />
    </Suspense>
  );
}
