/**
 * A file dropped anywhere on the window is for the composer (instead of the browser navigating
 * away to the file). Dropped while the composer is closed, it waits in `takePendingFile` and
 * `open()` is called; dropped outside the open dialog's form, it goes to `attachRef`.
 */
import { useCallback, useEffect, useRef } from 'react';

const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;

export function useWindowFileDrop(open: () => void) {
  const pendingFile = useRef<File | null>(null);
  // Set by the open dialog: how it attaches a file.
  const attachRef = useRef<((file: File) => void) | null>(null);
  const openRef = useRef(open);
  openRef.current = open;

  useEffect(() => {
    const over = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      // The dialog's own form handled it (and said so).
      if (e.defaultPrevented || !hasFiles(e)) return;
      e.preventDefault();
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      if (attachRef.current) attachRef.current(file);
      else {
        pendingFile.current = file;
        openRef.current();
      }
    };
    document.addEventListener('dragover', over);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragover', over);
      document.removeEventListener('drop', drop);
    };
  }, []);

  const takePendingFile = useCallback(() => {
    const file = pendingFile.current;
    pendingFile.current = null;
    return file;
  }, []);

  return { takePendingFile, attachRef };
}
