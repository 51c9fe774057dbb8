/** Pieces the feed and folder dialogs share: the folder picker's options and the form's foot. */
import type { FolderView } from '../../../../src/app/api';

/** A folder <select>'s options: `none` first (value ""), then the folders indented by depth. */
export function FolderOptions({
  none,
  choices,
}: {
  none: string;
  choices: readonly { folder: FolderView; depth: number }[];
}) {
  return (
    <>
      <option value="">{none}</option>
      {choices.map(({ folder, depth }) => (
        <option key={folder.id} value={folder.id}>
          {`${'\u00a0\u00a0'.repeat(depth)}${folder.title}`}
        </option>
      ))}
    </>
  );
}

/** A dialog form's foot: the error (announced), Cancel, and the submit button (off while busy). */
export function DialogFoot({
  error,
  busy,
  submit,
  submitTestId,
  onCancel,
}: {
  error: string | null;
  busy: boolean;
  submit: string;
  submitTestId: string;
  onCancel(): void;
}) {
  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy} data-testid={submitTestId}>
          {submit}
        </button>
      </div>
    </>
  );
}
