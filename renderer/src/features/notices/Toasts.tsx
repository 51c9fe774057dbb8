import { useEffect } from 'react';
import { CloseIcon } from '../../components/icons';
import { useApp } from '../../store/context';
import type { Toast } from '../../store/ui-slice';

/** Info toasts leave on their own; warnings and errors stay until dismissed. */
const INFO_LIFETIME_MS = 8000;

export function Toasts() {
  const notices = useApp((s) => s.notices);
  if (notices.length === 0) return null;
  // The Undo of a bulk change is not a toast: it is docked under the river (UndoBar.tsx).
  return (
    <div className="toasts">
      {notices.map((notice) => (
        <ToastView key={notice.id} notice={notice} />
      ))}
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
