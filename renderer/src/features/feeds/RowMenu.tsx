import { type KeyboardEvent, useEffect, useRef } from 'react';

export interface MenuAction {
  label: string;
  run(): void;
  danger?: boolean;
  disabled?: boolean;
  testId?: string;
}

/**
 * A row's actions menu (the "⋯" button, the context-menu key, Shift+F10, right click): arrow keys
 * move, Enter runs, Escape or Tab closes and gives focus back to the row it came from.
 */
export function RowMenu({
  label,
  actions,
  onClose,
}: {
  label: string;
  actions: MenuAction[];
  onClose(): void;
}) {
  const menu = useRef<HTMLDivElement>(null);

  // The latest onClose, so a re-render of the tree (a feed's status event) neither re-runs the
  // effect below nor moves focus back to the first item while the person is choosing.
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    menu.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
    const outside = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node)) close.current();
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, []);

  function onKeyDown(event: KeyboardEvent) {
    const items = [...(menu.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    let next: number | null = null;
    if (event.key === 'ArrowDown') next = (at + 1) % items.length;
    else if (event.key === 'ArrowUp') next = (at - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
      return;
    }
    if (next !== null) {
      event.preventDefault();
      items[next]?.focus();
    }
    // Keys inside the menu are the menu's: the tree and the app's shortcuts must not see them.
    event.stopPropagation();
  }

  return (
    <div
      ref={menu}
      className="row-menu"
      role="menu"
      aria-label={label}
      onKeyDown={onKeyDown}
      data-testid="row-menu"
    >
      {actions.map((action) => (
        <button
          key={action.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={action.danger ? 'danger' : undefined}
          disabled={action.disabled}
          onClick={() => {
            onClose();
            action.run();
          }}
          data-testid={action.testId}
        >
          {action.label}
        </button>
      ))}
    </div>
  );
}
