import { type FormEvent, useState } from 'react';
import type { FeedSettingsPatch } from '../../../../src/app/api';
import { Checkbox } from '../../components/Checkbox';
import { Dialog } from '../../components/Dialog';
import { MuteFilterEditor } from '../../components/MuteFilterEditor';
import { useApp } from '../../store/context';
import { DialogFoot, FolderOptions } from './dialog-parts';
import { folderChoices, type TreeNode } from './feed-tree';

/** One feed's settings: its name, folder, polling interval, notifications, images, full text, mute filters. */
export function FeedSettingsDialog({
  feedId,
  focus,
  tree,
  onClose,
}: {
  feedId: number;
  focus: 'title' | 'folder';
  tree: readonly TreeNode[];
  onClose(): void;
}) {
  const feed = useApp((s) => s.feeds.find((f) => f.id === feedId));
  const updateFeed = useApp((s) => s.updateFeed);
  const [title, setTitle] = useState(feed?.title ?? '');
  const [folder, setFolder] = useState(String(feed?.folderId ?? ''));
  const [interval, setInterval] = useState(feed?.intervalMin === null ? '' : String(feed?.intervalMin ?? ''));
  const [notify, setNotify] = useState(feed?.notify ?? false);
  const [loadImages, setLoadImages] = useState(feed?.loadImages ?? false);
  const [fullText, setFullText] = useState(feed?.fullText ?? false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!feed) return null;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!feed) return;
    const patch: FeedSettingsPatch = {};
    const name = title.trim();
    if (name !== feed.title) patch.title = name === '' ? null : name;
    const folderId = folder === '' ? null : Number(folder);
    if (folderId !== feed.folderId) patch.folderId = folderId;
    const minutes = interval.trim() === '' ? null : Number(interval);
    if (minutes !== null && (!Number.isInteger(minutes) || minutes < 1)) {
      setError('The interval is a whole number of minutes (or empty for the default).');
      return;
    }
    if (minutes !== feed.intervalMin) patch.intervalMin = minutes;
    if (notify !== feed.notify) patch.notify = notify;
    if (loadImages !== feed.loadImages) patch.loadImages = loadImages;
    if (fullText !== feed.fullText) patch.fullText = fullText;
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    const result = await updateFeed(feed.id, patch);
    setBusy(false);
    if (result.ok) onClose();
    else setError(result.error.message);
  }

  return (
    <Dialog
      title={`Settings for “${feed.title || feed.url}”`}
      onClose={onClose}
      testId="feed-settings-dialog"
    >
      <form className="dialog-form" onSubmit={save} noValidate>
        <label>
          Name
          <input
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            data-autofocus={focus === 'title' ? true : undefined}
            data-testid="feed-settings-title"
          />
          <span className="field-hint">
            {feed.titleIsCustom
              ? 'Your own name; empty it to use the feed’s title.'
              : 'As the feed names itself.'}
          </span>
        </label>
        <label>
          Folder
          <select
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            data-autofocus={focus === 'folder' ? true : undefined}
            data-testid="feed-settings-folder"
          >
            <FolderOptions none="(no folder)" choices={folderChoices(tree)} />
          </select>
        </label>
        <label>
          Check every (minutes)
          <input
            type="number"
            min={1}
            inputMode="numeric"
            placeholder="default"
            value={interval}
            onChange={(e) => setInterval(e.target.value)}
            data-testid="feed-settings-interval"
          />
          <span className="field-hint">
            Empty: the default from Settings. A feed’s ttl may make it less often.
          </span>
        </label>
        <Checkbox className="check" checked={notify} onChange={setNotify} testId="feed-settings-notify">
          Notify me of new items
        </Checkbox>
        <Checkbox
          className="check"
          checked={loadImages}
          onChange={setLoadImages}
          testId="feed-settings-images"
        >
          Always load this feed’s images (even when images load on click)
        </Checkbox>
        <Checkbox
          className="check"
          checked={fullText}
          onChange={setFullText}
          testId="feed-settings-full-text"
        >
          Always show the full text (the article, fetched from its page)
        </Checkbox>
        <DialogFoot
          error={error}
          busy={busy}
          submit="Save"
          submitTestId="feed-settings-save"
          onCancel={onClose}
        />
      </form>
      <section className="dialog-section" aria-labelledby="feed-mute-title">
        <h3 id="feed-mute-title">Mute filters for this feed</h3>
        <MuteFilterEditor feedId={feed.id} />
      </section>
    </Dialog>
  );
}
