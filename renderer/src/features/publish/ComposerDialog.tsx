/**
 * The composer: a dialog over the app, opened by `c`, the toolbar's "New post", the tray, or
 * "Edit" in My posts. Live grapheme counter (the same counter the core uses), red past the limit;
 * Post is refused with the reason. Link, enclosure (URL, picked or dropped file), tags, sub-items.
 * A new post's draft is saved through the API as it is typed, so it survives a restart.
 */
import { type DragEvent, type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import type { PostInput } from '../../../../src/app/api';
import { countGraphemes, DEFAULT_CHAR_LIMIT } from '../../../../src/publish/graphemes';
import { errorMessage } from '../../api/api-error';
import { getClient } from '../../api/client';
import { CloseIcon } from '../../components/icons';
import { useApp } from '../../store/context';
import {
  type ComposerDraft,
  draftProblem,
  emptyDraft,
  fromPostInput,
  fromPostView,
  toDraftInput,
  toPostInput,
} from './draft';
import { EnclosureField } from './EnclosureField';
import { keepFocusInside } from './focus-trap';
import { OutlineEditor } from './OutlineEditor';
import { maxEnclosureBytes, readDroppedFile } from './read-file';
import './publish.css';

/** Typing pauses this long before the draft is saved. */
const DRAFT_SAVE_MS = 400;

export function ComposerDialog({
  takePendingFile,
  attachRef,
}: {
  takePendingFile(): File | null;
  attachRef: { current: ((file: File) => void) | null };
}) {
  const setOpen = useApp((s) => s.setComposerOpen);
  const editingId = useApp((s) => s.editingPostId);
  const editing = useApp((s) =>
    s.editingPostId === null ? null : (s.posts.find((p) => p.id === s.editingPostId) ?? null),
  );
  const setEditing = useApp((s) => s.setEditingPost);
  const createPost = useApp((s) => s.createPost);
  const editPost = useApp((s) => s.editPost);

  const [draft, setDraft] = useState<ComposerDraft>(() => (editing ? fromPostView(editing) : emptyDraft()));
  const [limit, setLimit] = useState(DEFAULT_CHAR_LIMIT);
  // Where a post goes (the feed's public URLs); null until known.
  const [goesTo, setGoesTo] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const [dragging, setDragging] = useState(false);
  // The saved draft is loaded once; typing before it arrives wins over it.
  const touched = useRef(false);
  const textRef = useRef<HTMLTextAreaElement>(null);

  const latest = useRef(draft);
  latest.current = draft;

  // Draft writes go one after another: requests on separate connections can be answered out of
  // order, and an autosave landing after the post's "clear the draft" would bring the text back.
  const draftWrites = useRef<Promise<void>>(Promise.resolve());
  const writeDraft = useCallback((input: PostInput | null): Promise<void> => {
    draftWrites.current = draftWrites.current.then(() => getClient().saveDraft(input)).catch(() => {});
    return draftWrites.current;
  }, []);

  const saveDraftNow = () => {
    if (editingId !== null || !touched.current || sending.current) return;
    void writeDraft(toDraftInput(latest.current));
  };

  // Closing keeps what was typed: the pending autosave is flushed, not dropped.
  const close = (posted = false) => {
    if (!posted) saveDraftNow();
    setOpen(false);
    setEditing(null);
  };

  useEffect(() => {
    // Focus returns where it was when the dialog closes (the river item, the toolbar button).
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    textRef.current?.focus();
    const client = getClient();
    let live = true;
    client.getPublishSettings().then(
      (s) => live && setLimit(s.charLimit),
      () => {},
    );
    client.publishInfo().then(
      (info) => live && setGoesTo(info.publicUrls),
      () => {},
    );
    const dropped = takePendingFile();
    void (async () => {
      if (editingId === null) {
        try {
          const saved = await client.getDraft();
          if (live && saved && !touched.current) setDraft(fromPostInput(saved));
        } catch {
          // No draft to restore: the form starts empty.
        }
      }
      // A file dropped on the window is attached after the draft is in, so it adds to it.
      if (live && dropped) attachRef.current?.(dropped);
    })();
    return () => {
      live = false;
      before?.focus();
    };
  }, [editingId, takePendingFile, attachRef]);

  // Autosave a new post's draft (an edit is not a draft: its post is already stored).
  useEffect(() => {
    if (editingId !== null || !touched.current) return;
    const input = toDraftInput(draft);
    const timer = setTimeout(() => {
      // Once Post is pressed the draft is the post's: only its clearing may be written.
      if (!sending.current) void writeDraft(input);
    }, DRAFT_SAVE_MS);
    return () => clearTimeout(timer);
  }, [draft, editingId, writeDraft]);

  const change = (patch: Partial<ComposerDraft>) => {
    touched.current = true;
    setDraft((d) => ({ ...d, ...patch }));
    setError(null);
  };

  async function attach(file: File) {
    try {
      const max = maxEnclosureBytes(getClient().transport);
      change({ enclosureFile: await readDroppedFile(file, max), enclosureUrl: '' });
    } catch (e) {
      setError(errorMessage(e));
    }
  }
  attachRef.current = (file) => void attach(file);
  useEffect(
    () => () => {
      attachRef.current = null;
    },
    [attachRef],
  );

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    // A ref, not the `busy` state: two quick Ctrl+Enter land before React re-renders.
    if (sending.current) return;
    const problem = draftProblem(draft, limit);
    if (problem) {
      setError(problem);
      return;
    }
    sending.current = true;
    setBusy(true);
    try {
      const input = toPostInput(draft);
      const result = editingId === null ? await createPost(input) : await editPost(editingId, input);
      if (!result.ok) {
        setError(result.error.message);
        return;
      }
      touched.current = false;
      // The post is stored: whatever happens to clearing the draft, the dialog closes (an error
      // here must not invite a second Post of the same text).
      if (editingId === null) {
        await writeDraft(null);
      }
      close(true);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      sending.current = false;
      setBusy(false);
    }
  }

  const n = countGraphemes(draft.text);
  const over = n > limit;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) void attach(file);
  };

  return (
    <div className="composer-backdrop">
      {/* The dialog is a div around the form: a <form> may not take role="dialog" (axe
          aria-allowed-role), and the form keeps its own role for Enter and submit. */}
      <div
        className={dragging ? 'composer dragging' : 'composer'}
        role="dialog"
        aria-modal="true"
        aria-labelledby="composer-title"
        data-testid="composer"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            close();
          } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void submit();
          } else if (e.key === 'Tab') {
            keepFocusInside(e.currentTarget, e);
          }
        }}
        onDragOver={(e) => {
          if (e.dataTransfer.types.includes('Files')) {
            e.preventDefault();
            setDragging(true);
          }
        }}
        onDragLeave={(e) => {
          if (e.target === e.currentTarget) setDragging(false);
        }}
        onDrop={onDrop}
      >
        <form className="composer-form" onSubmit={submit}>
          <header className="composer-head">
            <h2 id="composer-title">{editingId === null ? 'New post' : 'Edit post'}</h2>
            <button
              type="button"
              className="icon-button"
              aria-label="Close the composer (the draft is kept)"
              onClick={() => close()}
            >
              <CloseIcon />
            </button>
          </header>
          <div className="composer-text">
            <textarea
              ref={textRef}
              value={draft.text}
              rows={4}
              aria-label="Post text"
              aria-describedby="composer-count"
              aria-invalid={over}
              placeholder="What's new?"
              onChange={(e) => change({ text: e.target.value })}
              data-testid="composer-text"
            />
            <span
              id="composer-count"
              className={over ? 'char-count over' : 'char-count'}
              data-testid="composer-count"
              title={`${n} of ${limit} characters`}
            >
              {over ? `${n - limit} over` : `${limit - n} left`}
            </span>
          </div>
          <label className="composer-field">
            <span>Link</span>
            <input
              type="url"
              inputMode="url"
              placeholder="https://… (optional)"
              value={draft.link}
              onChange={(e) => change({ link: e.target.value })}
              data-testid="composer-link"
            />
          </label>
          <EnclosureField
            url={draft.enclosureUrl}
            file={draft.enclosureFile}
            onUrl={(enclosureUrl) => change({ enclosureUrl })}
            onFile={(f) => void attach(f)}
            onClearFile={() => change({ enclosureFile: null })}
          />
          <label className="composer-field">
            <span>Tags</span>
            <input
              type="text"
              placeholder="comma, separated (optional)"
              value={draft.tags}
              onChange={(e) => change({ tags: e.target.value })}
              data-testid="composer-tags"
            />
          </label>
          <OutlineEditor items={draft.children} limit={limit} onChange={(children) => change({ children })} />
          {dragging && <p className="composer-drop-hint">Drop the file to attach it</p>}
          <footer className="composer-actions">
            {error && (
              <p className="form-error" role="alert" data-testid="composer-error">
                {error}
              </p>
            )}
            <span className="composer-hint">
              {goesTo !== null && goesTo.length === 0 ? (
                <span className="composer-warn" data-testid="composer-nowhere">
                  Not public yet: the post is kept and goes out once a target has an address (Settings).
                </span>
              ) : (
                'Ctrl+Enter posts · Esc keeps the draft'
              )}
            </span>
            <button type="submit" className="primary" disabled={busy} data-testid="composer-post">
              {busy ? 'Posting…' : editingId === null ? 'Post' : 'Save and republish'}
            </button>
          </footer>
        </form>
      </div>
    </div>
  );
}
