/**
 * What the desktop shell asks of the person: subscribe to a feed: link or `--subscribe` address,
 * import an OPML file that was opened, take the suggested feeds on first run. Each is a
 * confirmation, never done silently. Also follows notification clicks to their feed and item.
 * Self-contained (composed once in App.tsx); only Electron main sends these events, so in browser
 * mode it never shows anything.
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { TidingsEvents } from '../../../../src/app/api';
import { getClient } from '../../api/client';
import { useApp } from '../../store/context';
import { summarizeOpml } from './opml-summary';
import './shell.css';

type Request =
  | { kind: 'subscribe'; url: string }
  | ({ kind: 'import' } & TidingsEvents['shell.importRequest']);

export function ShellRequests() {
  const [queue, setQueue] = useState<Request[]>([]);
  const setFilter = useApp((s) => s.setFilter);
  const setPage = useApp((s) => s.setPage);

  useEffect(() => {
    const client = getClient();
    const offs = [
      client.on('shell.subscribeRequest', ({ url }) => setQueue((q) => [...q, { kind: 'subscribe', url }])),
      client.on('shell.importRequest', (r) => setQueue((q) => [...q, { kind: 'import', ...r }])),
      client.on('shell.openItem', ({ feedId, itemId }) => {
        setPage('river');
        setFilter({ feedId });
        if (itemId !== null) revealItem(itemId);
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [setFilter, setPage]);

  const current = queue[0];
  if (!current) return null;
  const done = () => setQueue((q) => q.slice(1));
  return current.kind === 'subscribe' ? (
    <SubscribeDialog key={`s:${current.url}`} url={current.url} onDone={done} />
  ) : (
    <ImportDialog key={`i:${current.fileName}`} request={current} onDone={done} />
  );
}

/** Scrolls the clicked notification's item into view once the feed's river has it. */
function revealItem(itemId: number): void {
  const until = Date.now() + 3000;
  const look = () => {
    const el = document.querySelector<HTMLElement>(`[data-item-id="${itemId}"]`);
    if (el) {
      el.scrollIntoView({ block: 'center' });
      el.focus?.({ preventScroll: true });
    } else if (Date.now() < until) {
      setTimeout(look, 100);
    }
  };
  setTimeout(look, 50);
}

function Dialog(props: {
  title: string;
  children: ReactNode;
  confirm: string;
  cancel: string;
  busy: boolean;
  error: string | null;
  onConfirm(): void;
  onCancel(): void;
  testId: string;
}) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  const { busy, onCancel } = props;
  useEffect(() => {
    if (!busy) confirmRef.current?.focus();
  }, [busy]);
  // A modal: keys go to it, not to the river's shortcuts behind it (capture phase, first).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !busy) onCancel();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [busy, onCancel]);
  return (
    <div className="shell-backdrop">
      <div
        className="shell-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shell-dialog-title"
        data-testid={props.testId}
      >
        <h2 id="shell-dialog-title">{props.title}</h2>
        {props.children}
        {props.error && (
          <p className="shell-dialog-error" role="alert">
            {props.error}
          </p>
        )}
        <div className="shell-dialog-buttons">
          <button type="button" className="ghost" onClick={props.onCancel} disabled={props.busy}>
            {props.cancel}
          </button>
          <button
            type="button"
            ref={confirmRef}
            className="primary"
            onClick={props.onConfirm}
            disabled={props.busy}
            data-testid="shell-dialog-confirm"
          >
            {props.busy ? 'Working…' : props.confirm}
          </button>
        </div>
      </div>
    </div>
  );
}

function SubscribeDialog({ url, onDone }: { url: string; onDone(): void }) {
  const addFeed = useApp((s) => s.addFeed);
  const setFilter = useApp((s) => s.setFilter);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    setError(null);
    const result = await addFeed(url);
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setFilter({ feedId: result.value.id });
    onDone();
  }
  return (
    <Dialog
      title="Subscribe to this feed?"
      confirm="Subscribe"
      cancel="Cancel"
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onCancel={onDone}
      testId="shell-subscribe-dialog"
    >
      <p>A link asked Tidings to subscribe to:</p>
      <p className="shell-dialog-url">{url}</p>
    </Dialog>
  );
}

function ImportDialog({
  request,
  onDone,
}: {
  request: TidingsEvents['shell.importRequest'];
  onDone(): void;
}) {
  const importOpml = useApp((s) => s.importOpml);
  const [busy, setBusy] = useState(false);
  const summary = summarizeOpml(request.text);
  const more = summary.count - summary.titles.length;
  const feeds = `${summary.count} feed${summary.count === 1 ? '' : 's'}`;
  async function confirm() {
    setBusy(true);
    await importOpml(request.text);
    setBusy(false);
    onDone();
  }
  return (
    <Dialog
      title={
        request.suggested ? 'Start with some suggested feeds?' : `Import ${feeds} from ${request.fileName}?`
      }
      confirm={request.suggested ? `Add ${feeds}` : 'Import'}
      cancel={request.suggested ? 'No, thanks' : 'Cancel'}
      busy={busy}
      error={summary.count === 0 ? 'This file names no feeds.' : null}
      onConfirm={() => (summary.count === 0 ? onDone() : void confirm())}
      onCancel={onDone}
      testId="shell-import-dialog"
    >
      {request.suggested && (
        <p>
          Tidings can subscribe you to a few feeds to begin with. You can unsubscribe from any of them later.
        </p>
      )}
      {summary.titles.length > 0 && (
        <ul className="shell-dialog-list">
          {summary.titles.map((t) => (
            <li key={t}>{t}</li>
          ))}
          {more > 0 && <li className="shell-dialog-more">and {more} more</li>}
        </ul>
      )}
    </Dialog>
  );
}
