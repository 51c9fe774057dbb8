import type { ReactNode } from 'react';

/**
 * A checkbox inside its label, the sentence after it: the one shape every on/off setting uses
 * (the label's class picks the look: `settings-check`, `check`, `hide-read`), with what it does
 * in a smaller line under the sentence when there is a `hint`.
 */
export function Checkbox({
  className,
  checked,
  onChange,
  testId,
  hint,
  children,
}: {
  className: string;
  checked: boolean;
  onChange(checked: boolean): void;
  testId?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <label className={className}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      {hint ? (
        <span>
          {children}
          <span className="settings-note settings-hint">{hint}</span>
        </span>
      ) : (
        children
      )}
    </label>
  );
}
