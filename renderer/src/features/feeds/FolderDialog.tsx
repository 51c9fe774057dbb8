import { type FormEvent, useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { useApp } from '../../store/context';
import { DialogFoot, FolderOptions } from './dialog-parts';
import { folderChoices, subtreeIds, type TreeNode } from './feed-tree';

export type FolderDialogMode =
  | { kind: 'create'; parentId: number | null }
  | { kind: 'move'; folderId: number };

/** "New folder" (a name, and where) and a folder's "Move to…" (where only). */
export function FolderDialog({
  mode,
  tree,
  onClose,
}: {
  mode: FolderDialogMode;
  tree: readonly TreeNode[];
  onClose(): void;
}) {
  const folders = useApp((s) => s.folders);
  const createFolder = useApp((s) => s.createFolder);
  const moveFolder = useApp((s) => s.moveFolder);
  const moving = mode.kind === 'move' ? folders.find((f) => f.id === mode.folderId) : undefined;
  const [name, setName] = useState('');
  const [parent, setParent] = useState<string>(
    mode.kind === 'create' ? String(mode.parentId ?? '') : String(moving?.parentId ?? ''),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A folder cannot move into itself or below itself.
  const forbidden = mode.kind === 'move' ? subtreeIds(folders, mode.folderId) : new Set<number>();
  const choices = folderChoices(tree).filter((c) => !forbidden.has(c.folder.id));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parentId = parent === '' ? null : Number(parent);
    if (mode.kind === 'create' && !name.trim()) {
      setError('Give the folder a name.');
      return;
    }
    setBusy(true);
    const result =
      mode.kind === 'create' ? await createFolder(name, parentId) : await moveFolder(mode.folderId, parentId);
    setBusy(false);
    if (result.ok) onClose();
    else setError(result.error.message);
  }

  const title = mode.kind === 'create' ? 'New folder' : `Move “${moving?.title ?? 'folder'}”`;
  return (
    <Dialog title={title} onClose={onClose} testId="folder-dialog">
      <form className="dialog-form" onSubmit={submit} noValidate>
        {mode.kind === 'create' && (
          <label>
            Name
            <input
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setError(null);
              }}
              data-testid="folder-name"
            />
          </label>
        )}
        <label>
          {mode.kind === 'create' ? 'Inside' : 'Into'}
          <select value={parent} onChange={(e) => setParent(e.target.value)} data-testid="folder-parent">
            <FolderOptions none="(top level)" choices={choices} />
          </select>
        </label>
        <DialogFoot
          error={error}
          busy={busy}
          submit={mode.kind === 'create' ? 'Create' : 'Move'}
          submitTestId="folder-save"
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
