import { useEffect, useRef } from 'react';
import { SHORTCUTS, type Shortcut } from '../../../../src/app/shortcuts';

const GROUPS: Shortcut['group'][] = ['Reading', 'Items', 'Feeds', 'Player', 'Go to', 'App'];

/** How a key from the table reads on screen. */
export function keyLabel(key: string): string {
  if (key === ' ') return 'Space';
  if (key === 'ArrowDown') return '↓';
  if (key === 'ArrowUp') return '↑';
  if (key === 'ArrowLeft') return '←';
  if (key === 'ArrowRight') return '→';
  if (key === 'P') return 'Shift+P';
  if (key === 'A') return 'Shift+A';
  return key;
}

/** The `?` sheet: every shortcut of the table, by group. A modal dialog; Escape closes it. */
export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    const back = document.activeElement as HTMLElement | null;
    return () => back?.focus?.({ preventScroll: true });
  }, []);
  return (
    <dialog
      ref={ref}
      className="shortcuts-help"
      aria-labelledby="shortcuts-title"
      data-testid="shortcuts-help"
      onClose={onClose}
      onCancel={onClose}
    >
      <header>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <button type="button" onClick={onClose} className="link-button">
          Close
        </button>
      </header>
      <div className="shortcuts-groups">
        {GROUPS.map((group) => (
          <section key={group} aria-labelledby={`sc-${group}`}>
            <h3 id={`sc-${group}`}>{group}</h3>
            <dl>
              {SHORTCUTS.filter((s) => s.group === group).map((s) => (
                <div key={s.command} className="shortcut-row">
                  <dt>
                    {s.keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 && ' or '}
                        {k.length > 1 && k.includes(' ') && k !== ' ' ? (
                          k.split(' ').map((part, j) => (
                            <span key={part}>
                              {j > 0 && ' then '}
                              <kbd>{keyLabel(part)}</kbd>
                            </span>
                          ))
                        ) : (
                          <kbd>{keyLabel(k)}</kbd>
                        )}
                      </span>
                    ))}
                  </dt>
                  <dd>{s.label}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </dialog>
  );
}
