/**
 * One section of the Settings page: its landmark and heading (the page's list jumps to `id`), and
 * why its settings could not be loaded or saved, when they could not. Any feature's section may
 * use it; its fields take part in the page's one Save through settings-drafts.ts.
 */
import type { ReactNode } from 'react';

export function SettingsSection({
  id,
  title,
  problem,
  children,
}: {
  /** The anchor the page's section list jumps to: `settings-<name>`. */
  id: string;
  title: string;
  /** Why its settings could not load or save (a draft's `status`); nothing when all is well. */
  problem?: { text: string } | null;
  children: ReactNode;
}) {
  return (
    <section id={id} className="settings-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      {problem && <p className="form-error">{problem.text}</p>}
      {children}
    </section>
  );
}
