import { useMemo, useState } from 'react';
import suggestedOpml from '../../../resources/runtime/suggested-feeds.opml?raw';
import { FeedIcon } from '../components/icons';
import { usePaintedOnMount } from '../components/use-first-paint';
import { ImportOpmlButton } from '../features/feeds/OpmlButtons';
import { useApp } from '../store/context';

interface Suggested {
  folder: string;
  titles: string[];
}

/** The suggested subscriptions (resources/runtime/suggested-feeds.opml), by folder, for the list. */
function readSuggested(text: string): Suggested[] {
  const doc = new DOMParser().parseFromString(text, 'text/xml');
  return [...doc.querySelectorAll('body > outline')].map((folder) => ({
    folder: folder.getAttribute('text') ?? '',
    titles: [...folder.querySelectorAll('outline[xmlUrl]')].map((o) => o.getAttribute('text') ?? ''),
  }));
}

/**
 * The first thing a new user sees: what Tidings is, and where to start, with its own ways in (on a
 * narrow window the sidebar is a closed drawer, so "on the left" would point at nothing): Add a
 * feed (opens the drawer on the address field), Import OPML, or the suggested feeds.
 */
export function Welcome({ onAddFeed }: { onAddFeed(): void }) {
  usePaintedOnMount();
  const importOpml = useApp((s) => s.importOpml);
  const [busy, setBusy] = useState(false);
  const suggested = useMemo(() => readSuggested(suggestedOpml), []);
  const count = suggested.reduce((n, s) => n + s.titles.length, 0);

  async function addSuggested() {
    setBusy(true);
    try {
      await importOpml(suggestedOpml);
    } finally {
      setBusy(false);
    }
  }

  return (
    // id="river": the skip link's target while there is no river yet; it scrolls, so it takes focus.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable).
    <div id="river" className="welcome" tabIndex={0} data-testid="empty-state">
      <div className="welcome-card">
        <div className="welcome-icon">
          <FeedIcon size={40} />
        </div>
        <h2>Welcome to Tidings</h2>
        <p>
          Tidings is a <strong>river of news</strong>: follow feeds and their new items flow in here, newest
          first, grouped by the update they came in.
        </p>
        <div className="welcome-actions">
          <button type="button" className="primary" onClick={onAddFeed} data-testid="welcome-add-feed">
            Add a feed
          </button>
          <ImportOpmlButton
            label="Import OPML…"
            ghost={false}
            icon={false}
            testId="welcome-import"
            inputTestId="welcome-import-input"
          />
        </div>
        <p>
          A feed’s address or just a site’s address will do: Tidings finds the feed. Moving from another
          reader? <strong>Import OPML</strong> brings all your subscriptions at once.
        </p>
        <section
          className="welcome-suggested"
          aria-labelledby="welcome-suggested-title"
          data-testid="welcome-suggested"
        >
          <h3 id="welcome-suggested-title">Or start with some suggested feeds</h3>
          <ul>
            {suggested.map((s) => (
              <li key={s.folder}>
                <strong>{s.folder}:</strong> {s.titles.join(', ')}
              </li>
            ))}
          </ul>
          <button
            type="button"
            disabled={busy}
            onClick={() => void addSuggested()}
            data-testid="welcome-suggested-add"
          >
            Add these {count} feeds
          </button>
        </section>
        <p className="welcome-more">
          Feeds that support <strong>rssCloud</strong> arrive in real time; the others are checked politely,
          as often as they ask.
        </p>
      </div>
    </div>
  );
}
