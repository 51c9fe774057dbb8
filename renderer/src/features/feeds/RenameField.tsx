import { useEffect, useRef, useState } from 'react';

/** In-place rename: Enter or leaving the field saves, Escape cancels; an empty name is refused. */
export function RenameField({
  label,
  initial,
  onSave,
  onCancel,
}: {
  label: string;
  initial: string;
  onSave(value: string): void;
  onCancel(): void;
}) {
  const [value, setValue] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  const done = useRef(false);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  function finish(save: boolean) {
    if (done.current) return;
    done.current = true;
    const name = value.trim();
    if (save && name && name !== initial) onSave(name);
    else onCancel();
  }

  return (
    <input
      ref={input}
      className="rename-field"
      aria-label={label}
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') finish(true);
        else if (e.key === 'Escape') finish(false);
      }}
      onClick={(e) => e.stopPropagation()}
      onBlur={() => finish(true)}
      data-testid="rename-field"
    />
  );
}
