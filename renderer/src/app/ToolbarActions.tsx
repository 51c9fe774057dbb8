/**
 * The toolbar's buttons at its right end (New post, Activity, Settings), and the "More" menu that
 * holds the ones a narrow window has no room for: the toolbar stays one row at any width (issue
 * 35). Which button moves into More at which width is the style sheet's (toolbar.css: container
 * queries on the toolbar's own width, `data-rank` 1 goes first); the menu lists every action and
 * the same rules show in it only those hidden from the row, so the two never disagree.
 */
import { useId, useRef, useState } from 'react';
import { MoreIcon } from '../components/icons';
import { Menu, type MenuClose } from '../components/Menu';
import './toolbar.css';

export interface ToolbarAction {
  label: string;
  /** The button's tooltip (its key, if it has one). */
  title?: string;
  /** A panel toggle: pressed while its panel is open (a checked item in More). */
  pressed?: boolean;
  run(): void;
  /** The row's button; its item in More is `more-<testId>`. */
  testId: string;
  /** 1 moves into More first (at the widest width), then 2, then 3. */
  rank: 1 | 2 | 3;
}

export function ToolbarActions({ actions }: { actions: ToolbarAction[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  function close(how: MenuClose) {
    setOpen(false);
    // A click elsewhere put focus where it wanted; every other way back is to the More button.
    if (how !== 'outside') button.current?.focus();
  }

  return (
    <div className="toolbar-actions">
      {actions.map((action) => (
        <button
          key={action.testId}
          type="button"
          className="panel-toggle toolbar-action"
          aria-pressed={action.pressed}
          title={action.title ?? action.label}
          onClick={action.run}
          data-rank={action.rank}
          data-testid={action.testId}
        >
          {action.label}
        </button>
      ))}
      <div className="toolbar-more">
        <button
          ref={button}
          type="button"
          className="icon-button toolbar-more-button"
          aria-label="More actions"
          title="More actions"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? menuId : undefined}
          onClick={() => setOpen((o) => !o)}
          onKeyDown={(e) => {
            // The menu button pattern: the arrow keys open it too (it takes focus on its first item).
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              setOpen(true);
            }
          }}
          data-testid="toolbar-more"
        >
          <MoreIcon />
        </button>
        {open && (
          <Menu
            id={menuId}
            label="More actions"
            className="toolbar-more-menu"
            testId="toolbar-more-menu"
            onClose={close}
            anchor={button}
            actions={actions.map((action) => ({
              label: action.label,
              run: action.run,
              ...(action.pressed === undefined ? {} : { checked: action.pressed }),
              testId: `more-${action.testId}`,
              data: { 'data-rank': String(action.rank) },
            }))}
          />
        )}
      </div>
    </div>
  );
}
