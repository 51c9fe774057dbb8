import type { InputHTMLAttributes, ReactNode } from 'react';

/**
 * A text input inside its label, the one shape Settings' typed fields use: the label's name in
 * `settings-label`, the input, and what it is for in a smaller line under it when there is a
 * `note`. `onValue` gets the input's text; the rest are the input's own attributes.
 */
export function TextField({
  label,
  note,
  onValue,
  testId,
  ...input
}: {
  label: ReactNode;
  note?: ReactNode;
  onValue(value: string): void;
  testId?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'>) {
  return (
    <label className="settings-field">
      <span className="settings-label">{label}</span>
      <input {...input} onChange={(e) => onValue(e.target.value)} data-testid={testId} />
      {note && <span className="settings-note">{note}</span>}
    </label>
  );
}
