import type { ReactNode } from 'react';

/**
 * A checkbox inside its label, the sentence after it: the one shape every on/off setting uses
 * (the label's class picks the look: `settings-check`, `check`, `hide-read`).
 */
export function Checkbox({
  className,
  checked,
  onChange,
  testId,
  children,
}: {
  className: string;
  checked: boolean;
  onChange(checked: boolean): void;
  testId?: string;
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
      {children}
    </label>
  );
}
