/** The pieces inside a tree row that feed and folder rows share: name (or its rename field), count, menu button. */
import { MoreIcon } from '../../components/icons';
import { RenameField } from './RenameField';

/** The row's name, or the field that renames it while a rename is under way. */
export function RowName({
  name,
  className,
  renaming,
  renameLabel,
  onRename,
  onCancel,
}: {
  name: string;
  className: string;
  renaming: boolean;
  renameLabel: string;
  onRename(name: string): void;
  onCancel(): void;
}) {
  return renaming ? (
    <RenameField label={renameLabel} initial={name} onSave={onRename} onCancel={onCancel} />
  ) : (
    <span className={className}>{name}</span>
  );
}

/** "N unread": shown when N > 0, still said (visually hidden) at 0 so the row's name is stable. */
export function UnreadCount({ unread }: { unread: number }) {
  return (
    <span className={unread > 0 ? 'count' : 'visually-hidden'}>
      {unread}
      <span className="visually-hidden"> unread</span>
    </span>
  );
}

/** The row's "…" button: out of the row's name and the Tab order; the context-menu key reaches it. */
export function RowMenuButton({
  label,
  open,
  onOpen,
  testId,
}: {
  label: string;
  open: boolean;
  onOpen(): void;
  testId: string;
}) {
  return (
    <button
      type="button"
      className="icon-button row-menu-button"
      tabIndex={-1}
      aria-hidden="true"
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={open}
      onClick={onOpen}
      data-testid={testId}
    >
      <MoreIcon />
    </button>
  );
}
