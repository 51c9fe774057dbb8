import { useId } from 'react';
import { Checkbox } from '../../components/Checkbox';
import { usePopup } from '../../components/use-popup';
import { useApp } from '../../store/context';

const DAY = 24;
const WEEK = 7 * 24;

/**
 * The river bar's "Mark read" menu (issue 35): everything in view (Shift+A), what is older than a
 * day or a week (each with its Undo), and the read-as-you-go setting (Settings.markReadOnScroll,
 * on by default): scrolling past, opening or expanding an item reads it.
 */
export function MarkReadMenu() {
  const { open, setOpen, close, box } = usePopup<HTMLDivElement>('.mark-read-button');
  const menuId = useId();
  const markViewRead = useApp((s) => s.markViewRead);
  const markOlderRead = useApp((s) => s.markOlderRead);
  const asYouGo = useApp((s) => s.markReadOnScroll);
  const setAsYouGo = useApp((s) => s.setMarkReadOnScroll);

  const run = (action: () => Promise<void>) => () => {
    close(true);
    void action();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape closes the menu; the controls inside are its items.
    <div
      className="mark-read-menu"
      ref={box}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.preventDefault();
          close(true);
        }
      }}
    >
      <button
        type="button"
        className="mark-read-button"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid="mark-read-menu"
        onClick={() => setOpen(!open)}
      >
        Mark read <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="mark-read-popup" id={menuId} data-testid="mark-read-popup">
          <ul>
            <li>
              <button type="button" data-testid="mark-view-read" onClick={run(markViewRead)}>
                Everything here <kbd>Shift+A</kbd>
              </button>
            </li>
            <li>
              <button type="button" data-testid="mark-older-day" onClick={run(() => markOlderRead(DAY))}>
                Older than a day
              </button>
            </li>
            <li>
              <button type="button" data-testid="mark-older-week" onClick={run(() => markOlderRead(WEEK))}>
                Older than a week
              </button>
            </li>
          </ul>
          <Checkbox
            className="check mark-read-as-you-go"
            checked={asYouGo}
            onChange={(on) => void setAsYouGo(on)}
            testId="mark-read-on-scroll"
          >
            Mark items read as I scroll past, open or expand them
          </Checkbox>
        </div>
      )}
    </div>
  );
}
