/**
 * What the app asks of the person, one question at a time: whether a public tunnel may open (the
 * first run, in browser mode and the desktop app alike: TunnelQuestion.tsx); and, from the desktop
 * shell, subscribe to a feed: link or `--subscribe` address, import an OPML file that was opened,
 * take the suggested feeds on first run. Each is a confirmation, never done silently. Also follows
 * notification clicks to their feed and item. Self-contained (composed once in App.tsx).
 */
import { useEffect, useState } from 'react';
import type { TidingsEvents } from '../../../../src/app/api';
import { getClient } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useApp } from '../../store/context';
import { summarizeOpml } from './opml-summary';
import { TunnelQuestion } from './TunnelQuestion';
import './shell.css';

type Request =
  | { kind: 'tunnel' }
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
    // The first run's question: no public tunnel opens until it is answered (issue 35).
    let live = true;
    client.realtimeInfo().then(
      (info) => live && info.tunnelQuestion && setQueue((q) => [...q, { kind: 'tunnel' }]),
      () => {},
    );
    return () => {
      live = false;
      for (const off of offs) off();
    };
  }, [setFilter, setPage]);

  const current = queue[0];
  if (!current) return null;
  const done = () => setQueue((q) => q.slice(1));
  if (current.kind === 'tunnel') return <TunnelQuestion onDone={done} />;
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
    <ConfirmDialog
      title="Subscribe to this feed?"
      answers={[
        { label: 'Cancel', run: onDone },
        { label: 'Subscribe', run: () => void confirm(), primary: true, testId: 'shell-dialog-confirm' },
      ]}
      busy={busy}
      error={error}
      onCancel={onDone}
      testId="shell-subscribe-dialog"
    >
      <p>A link asked Tidings to subscribe to:</p>
      <p className="shell-dialog-url">{url}</p>
    </ConfirmDialog>
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
    <ConfirmDialog
      title={
        request.suggested ? 'Start with some suggested feeds?' : `Import ${feeds} from ${request.fileName}?`
      }
      answers={[
        { label: request.suggested ? 'No, thanks' : 'Cancel', run: onDone },
        {
          label: request.suggested ? `Add ${feeds}` : 'Import',
          run: () => (summary.count === 0 ? onDone() : void confirm()),
          primary: true,
          testId: 'shell-dialog-confirm',
        },
      ]}
      busy={busy}
      error={summary.count === 0 ? 'This file names no feeds.' : null}
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
    </ConfirmDialog>
  );
}
