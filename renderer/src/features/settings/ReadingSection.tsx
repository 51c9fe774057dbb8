/** Settings > Reading: how often feeds are checked, how long items are kept, the theme. */
import { useCoreSettingsDraft } from './core-settings-draft';
import { ThemeField } from './ThemeField';

const KEYS = ['pollIntervalMin', 'retentionDays'] as const;

export function ReadingSection() {
  const reading = useCoreSettingsDraft('Reading', KEYS);
  const draft = reading.draft;
  return (
    <section id="settings-reading" className="settings-section" aria-labelledby="settings-reading-title">
      <h3 id="settings-reading-title">Reading</h3>
      {reading.status && <p className="form-error">{reading.status.text}</p>}
      {draft && (
        <>
          <label className="settings-field">
            <span className="settings-label">Check feeds every</span>
            <span>
              <input
                type="number"
                min={5}
                max={1440}
                value={draft.pollIntervalMin}
                onChange={(e) => reading.set({ pollIntervalMin: Number(e.target.value) })}
                data-testid="settings-interval"
              />
              minutes
            </span>
            <span className="settings-note">
              A feed that asks to be read less often (its own schedule) is read less often.
            </span>
          </label>
          <label className="settings-field">
            <span className="settings-label">Keep items for</span>
            <span>
              <input
                type="number"
                min={1}
                max={3650}
                value={draft.retentionDays}
                onChange={(e) => reading.set({ retentionDays: Number(e.target.value) })}
                data-testid="settings-retention"
              />
              days
            </span>
            <span className="settings-note">Starred items are kept forever.</span>
          </label>
        </>
      )}
      <ThemeField />
    </section>
  );
}
