/** Settings > Reading: how often feeds are checked, how long items are kept, the theme. */
import { SettingsSection } from '../../components/SettingsSection';
import { useCoreSettingsDraft } from './core-settings-draft';
import { ThemeField } from './ThemeField';

const KEYS = ['pollIntervalMin', 'retentionDays'] as const;

/** A whole number with its unit, its name above and what it does below. */
function NumberSetting(props: {
  label: string;
  unit: string;
  min: number;
  max: number;
  value: number;
  onChange(value: number): void;
  note: string;
  testId: string;
}) {
  return (
    <label className="settings-field">
      <span className="settings-label">{props.label}</span>
      <span>
        <input
          type="number"
          min={props.min}
          max={props.max}
          value={props.value}
          onChange={(e) => props.onChange(Number(e.target.value))}
          data-testid={props.testId}
        />
        {props.unit}
      </span>
      <span className="settings-note">{props.note}</span>
    </label>
  );
}

export function ReadingSection() {
  const reading = useCoreSettingsDraft('Reading', KEYS);
  const draft = reading.draft;
  return (
    <SettingsSection id="settings-reading" title="Reading" problem={reading.status}>
      {draft && (
        <>
          <NumberSetting
            label="Check feeds every"
            unit="minutes"
            min={5}
            max={1440}
            value={draft.pollIntervalMin}
            onChange={(pollIntervalMin) => reading.set({ pollIntervalMin })}
            note="A feed that asks to be read less often (its own schedule) is read less often."
            testId="settings-interval"
          />
          <NumberSetting
            label="Keep items for"
            unit="days"
            min={1}
            max={3650}
            value={draft.retentionDays}
            onChange={(retentionDays) => reading.set({ retentionDays })}
            note="Starred items are kept forever."
            testId="settings-retention"
          />
        </>
      )}
      <ThemeField />
    </SettingsSection>
  );
}
