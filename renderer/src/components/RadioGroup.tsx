/**
 * One choice among a few, as radio buttons in a radiogroup (the arrow keys move between them):
 * each a 24 px target inside its label (`settings-check`), with an optional hint under the label.
 * The one shape of Settings' choices (the theme, pictures) and Your feed's cloud.
 */
import { type ReactNode, useId } from 'react';

export interface RadioChoice<V extends string> {
  value: V;
  label: ReactNode;
  /** What the choice does, in a smaller line under it. */
  hint?: ReactNode;
  testId?: string;
}

export function RadioGroup<V extends string>({
  name,
  label,
  showLabel = false,
  value,
  choices,
  onChange,
}: {
  /** The radios' shared name (a page holds one group of each name). */
  name: string;
  /** What is chosen ("Theme"): the group's accessible name, shown when `showLabel`. */
  label: string;
  showLabel?: boolean;
  value: V;
  choices: readonly RadioChoice<V>[];
  onChange(value: V): void;
}) {
  const labelId = useId();
  return (
    <div
      role="radiogroup"
      className="settings-radios"
      {...(showLabel ? { 'aria-labelledby': labelId } : { 'aria-label': label })}
    >
      {showLabel && (
        <span id={labelId} className="settings-label">
          {label}
        </span>
      )}
      {choices.map((choice) => (
        <label key={choice.value} className="settings-check">
          <input
            type="radio"
            name={name}
            value={choice.value}
            checked={value === choice.value}
            onChange={() => onChange(choice.value)}
            data-testid={choice.testId}
          />
          <span>
            {choice.label}
            {choice.hint && <span className="settings-note settings-hint">{choice.hint}</span>}
          </span>
        </label>
      ))}
    </div>
  );
}
