import { useEffect, useRef } from 'react';
import { CloseIcon } from '../../components/icons';
import { useApp } from '../../store/context';

/** Keys that move around without acting: they leave the way back open (Tab may be going to it). */
const NOT_ACTIONS = new Set(['Tab', 'Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'z', 'Z']);
/** What a click must land on to count as an action (a click on empty space is not one). */
const CONTROLS =
  'button, a[href], input, select, textarea, summary, [role="button"], [role="treeitem"], [data-item-id]';

const typing = (target: EventTarget | null) =>
  !!(target as Element | null)?.closest?.(
    'input:not([type="checkbox"]):not([type="radio"]):not([type="button"]), textarea, [contenteditable="true"]',
  );
const inDialog = (target: EventTarget | null) =>
  !!(target as Element | null)?.closest?.('dialog, [role="dialog"]');

/**
 * A bulk change just made, with the way back: the Undo button or `z` (issue 17). It has no time
 * limit (WCAG 2.2.1: whoever reads slowly still gets it) yet never covers what is being read
 * (issue 35): it is a bar docked at the bottom of the main column, taking its own room, under the
 * river and above the player. It goes with the next action (a key that does something, a click
 * on a control elsewhere; typing in a field and work inside a dialog do not count), with Escape, or when the next bulk change replaces it.
 */
export function UndoBar() {
  const undo = useApp((s) => s.undo);
  const runUndo = useApp((s) => s.runUndo);
  const offerUndo = useApp((s) => s.offerUndo);
  const bar = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!undo) return;
    const inside = (target: EventTarget | null) => !!bar.current?.contains(target as Node);
    const onKey = (event: KeyboardEvent) => {
      if (inside(event.target) && event.key !== 'Escape') return;
      if (event.key === 'Escape') {
        // A dialog or a menu takes its Escape first.
        if (
          (event.target as Element | null)?.closest?.('dialog, [role="dialog"], [role="menu"], .item-actions')
        )
          return;
        offerUndo(null);
        return;
      }
      if (NOT_ACTIONS.has(event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
      // Typing into a field is not yet an action (its submit is); neither is work in a dialog.
      if (typing(event.target) || inDialog(event.target)) return;
      offerUndo(null);
    };
    const onClick = (event: MouseEvent) => {
      if (inside(event.target) || inDialog(event.target)) return;
      if ((event.target as Element | null)?.closest?.(CONTROLS)) offerUndo(null);
    };
    // Capture: the action that follows may offer an Undo of its own, which must not be dismissed.
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('click', onClick, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('click', onClick, true);
    };
  }, [undo, offerUndo]);

  if (!undo) return null;
  return (
    <div className="undo-bar" role="status" data-testid="undo-toast" ref={bar}>
      <span className="undo-message">{undo.message}.</span>
      <button type="button" className="toast-undo" onClick={() => void runUndo()} data-testid="undo-button">
        Undo <kbd>z</kbd>
      </button>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => offerUndo(null)}>
        <CloseIcon />
      </button>
    </div>
  );
}
