import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A modal dialog on the native <dialog> (focus kept inside, Escape closes, the page behind inert).
 * The first field, or the element marked data-autofocus, gets focus when it opens.
 */
export function Dialog({
  title,
  onClose,
  children,
  testId,
}: {
  title: string;
  onClose(): void;
  children: ReactNode;
  testId: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const first =
      dialog.querySelector<HTMLElement>('[data-autofocus]') ??
      dialog.querySelector<HTMLElement>('input, select, textarea, button:not(.dialog-close)');
    first?.focus();
    return () => dialog.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={`${testId}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={(e) => e.stopPropagation()}
      data-testid={testId}
    >
      <header className="dialog-head">
        <h2 id={`${testId}-title`}>{title}</h2>
        <button type="button" className="icon-button dialog-close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {children}
    </dialog>
  );
}
