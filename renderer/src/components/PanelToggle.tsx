/** A toolbar button that opens and closes a panel under the toolbar (activity log, settings). */
export function PanelToggle({
  label,
  title,
  open,
  onToggle,
  testId,
}: {
  label: string;
  title: string;
  open: boolean;
  onToggle(): void;
  testId: string;
}) {
  return (
    <button
      type="button"
      className="panel-toggle"
      aria-pressed={open}
      onClick={onToggle}
      data-testid={testId}
      title={title}
    >
      {label}
    </button>
  );
}
