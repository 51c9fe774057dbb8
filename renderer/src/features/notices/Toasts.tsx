import { useEffect } from 'react';
import { CloseIcon } from '../../components/icons';
import { useApp } from '../../store/context';
import type { Toast } from '../../store/ui-slice';

/** Info toasts leave on their own; warnings and errors stay until dismissed. */
const INFO_LIFETIME_MS = 8000;

export function Toasts() {
  const notices = useApp((s) => s.notices);
  const undo = useApp((s) => s.undo);
  if (notices.length === 0 && !undo) return null;
  return (
    <div className="toasts">
      {notices.map((notice) => (
        <ToastView key={notice.id} notice={notice} />
      ))}
      {undo && <UndoToast key={undo.message} message={undo.message} />}
    </div>
  );
}

/**
 * A bulk change just made, with the way back: the Undo button or `z`. It stays until undone,
 * dismissed, or replaced by the next bulk change: the way back has no time limit (WCAG 2.2.1),
 * and a toast that left on its own would race whoever reads slowly (or a loaded test machine).
 */
function UndoToast({ message }: { message: string }) {
  const runUndo = useApp((s) => s.runUndo);
  const offerUndo = useApp((s) => s.offerUndo);
  return (
    <div className="toast toast-info" role="status" data-testid="undo-toast">
      <span className="toast-message">{message}.</span>
      <button type="button" className="toast-undo" onClick={() => void runUndo()} data-testid="undo-button">
        Undo <kbd>z</kbd>
      </button>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => offerUndo(null)}>
        <CloseIcon />
      </button>
    </div>
  );
}
function ToastView({ notice }: { notice: Toast }) {
  const dismiss = useApp((s) => s.dismissNotice);
  useEffect(() => {
    if (notice.level !== 'info') return;
    const timer = setTimeout(() => dismiss(notice.id), INFO_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [notice, dismiss]);

  return (
    <div
      className={`toast toast-${notice.level}`}
      role={notice.level === 'error' ? 'alert' : 'status'}
      data-testid="notice"
      data-level={notice.level}
    >
      <span className="toast-message">{notice.message}</span>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(notice.id)}>
        <CloseIcon />
      </button>
    </div>
  );
}
