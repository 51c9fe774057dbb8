import { FeedIcon } from '../components/icons';
import { usePaintedOnMount } from '../components/use-first-paint';

/** The first thing a new user sees: what Tidings is, and where to start (the add field is focused). */
export function Welcome() {
  usePaintedOnMount();
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
        <p>
          Paste a feed address, or just a site’s address, into <strong>Add a feed</strong> on the left and
          press <kbd>Enter</kbd>. Tidings finds the feed for you.
        </p>
        <p className="welcome-more">
          Feeds that support <strong>rssCloud</strong> arrive in real time; the others are checked politely,
          as often as they ask. Moving from another reader? <strong>Import OPML</strong> brings all your
          subscriptions at once.
        </p>
      </div>
    </div>
  );
}
