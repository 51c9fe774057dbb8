/** Pieces the backup and restore dialogs share: their warnings, and the Close at their end. */

export function Warnings({ warnings }: { warnings: readonly string[] }) {
  return (
    <>
      {warnings.map((w) => (
        <p key={w} className="backup-warning">
          {w}
        </p>
      ))}
    </>
  );
}

export function CloseFoot({ onClose, testId }: { onClose(): void; testId: string }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="primary" onClick={onClose} data-autofocus data-testid={testId}>
        Close
      </button>
    </div>
  );
}
