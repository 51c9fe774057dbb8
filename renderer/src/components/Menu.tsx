/**
 * A menu of actions (WAI-ARIA menu pattern): it takes focus on its first item; the arrow keys,
 * Home and End move (over the items shown: an item a style hides is skipped); Enter or Space runs
 * one; Escape, Tab or a click outside closes it, and `onClose` puts focus back where the menu came
 * from. Shared by the feed list's row menus and the toolbar's overflow menu.
 */
import { type KeyboardEvent, type RefObject, useEffect, useRef } from 'react';

export interface MenuAction {
  label: string;
  run(): void;
  danger?: boolean;
  disabled?: boolean;
  /** A toggle: shown as a menuitemcheckbox, checked or not (a panel open, a filter on). */
  checked?: boolean;
  testId?: string;
  /** Extra attributes for styles that decide whether the item shows (the toolbar's overflow). */
  data?: Record<`data-${string}`, string>;
}

/** How the menu was closed: Escape and Tab give focus back to the opener; a pick or a click elsewhere too, unless elsewhere took it. */
export type MenuClose = 'escape' | 'tab' | 'pick' | 'outside';

export function Menu({
  id,
  label,
  actions,
  onClose,
  className,
  testId,
  anchor,
}: {
  id?: string;
  label: string;
  actions: MenuAction[];
  onClose(how: MenuClose): void;
  className?: string;
  testId?: string;
  /** The button that opened it: a press on it is its own (it toggles the menu), not "outside". */
  anchor?: RefObject<HTMLElement | null>;
}) {
  const menu = useRef<HTMLDivElement>(null);
  // The latest onClose, so a re-render (a feed's status event) neither re-runs the effect below
  // nor moves focus back to the first item while the person is choosing.
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    shownItems(menu.current)[0]?.focus();
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !anchor?.current?.contains(target)) close.current('outside');
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [anchor]);

  function onKeyDown(event: KeyboardEvent) {
    const items = shownItems(menu.current);
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    let next: number | null = null;
    if (event.key === 'ArrowDown') next = (at + 1) % items.length;
    else if (event.key === 'ArrowUp') next = (at - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      event.stopPropagation();
      onClose(event.key === 'Escape' ? 'escape' : 'tab');
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
      id={id}
      className={className ? `menu ${className}` : 'menu'}
      role="menu"
      aria-label={label}
      onKeyDown={onKeyDown}
      data-testid={testId}
    >
      {actions.map((action) => {
        const common = {
          type: 'button' as const,
          tabIndex: -1,
          className: action.danger ? 'danger' : undefined,
          disabled: action.disabled,
          onClick: () => {
            onClose('pick');
            action.run();
          },
          'data-testid': action.testId,
          ...action.data,
        };
        return action.checked === undefined ? (
          <button key={action.label} role="menuitem" {...common}>
            {action.label}
          </button>
        ) : (
          <button key={action.label} role="menuitemcheckbox" aria-checked={action.checked} {...common}>
            {action.label}
          </button>
        );
      })}
    </div>
  );
}

/** The items a person can reach: enabled, and not hidden by a style. */
function shownItems(menu: HTMLElement | null): HTMLButtonElement[] {
  return [...(menu?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])].filter(
    (b) => b.getClientRects().length > 0,
  );
}
