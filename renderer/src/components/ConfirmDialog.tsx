/**
 * A question with a few answers, as a modal dialog (components/Dialog.tsx: the page behind inert,
 * Escape or × is `onCancel`). The primary answer has focus when it opens. Used by the shell's
 * questions (subscribe to a link, import a file, open a public tunnel) and Settings' "leave
 * without saving?".
 */
import type { ReactNode } from 'react';
import { Dialog } from './Dialog';

export interface DialogAnswer {
  label: string;
  run(): void;
  /** The expected answer: styled so, and focused when the dialog opens. */
  primary?: boolean;
  testId?: string;
}

export function ConfirmDialog({
  title,
  answers,
  onCancel,
  busy = false,
  error = null,
  testId,
  children,
}: {
  title: string;
  /** In reading order; the primary one last, as platform dialogs put it. */
  answers: DialogAnswer[];
  onCancel(): void;
  /** An answer is being carried out: the buttons wait, and the primary one says so. */
  busy?: boolean;
  error?: string | null;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Dialog title={title} onClose={() => !busy && onCancel()} testId={testId}>
      <div className="confirm-body">
        {children}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="confirm-answers">
        {answers.map((answer) => (
          <button
            key={answer.label}
            type="button"
            className={answer.primary ? 'primary' : 'ghost'}
            data-autofocus={answer.primary ? true : undefined}
            disabled={busy}
            onClick={answer.run}
            data-testid={answer.testId}
          >
            {busy && answer.primary ? 'Working…' : answer.label}
          </button>
        ))}
      </div>
    </Dialog>
  );
}
