import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { isWebUrl } from '../../lib/format';
import { feedLabel, totalUnread } from '../../lib/group-feeds';
import { useApp } from '../../store/context';
import { feedById, type RiverShow } from '../../store/river-slice';

const TITLE_DELAY_MS = 250;

const SHOWS: { value: RiverShow; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
  { value: 'starred', label: 'Starred' },
];

/** What the river shows: which feed or folder (or all), and all / unread / starred. */
export function RiverHeading() {
  const selected = useApp(
    useShallow((s) => {
      const feed = s.filter.feedId === null ? undefined : feedById(s.feeds, s.filter.feedId);
      const folder =
        s.filter.folderId === null
          ? undefined
          : (s as { folders?: { id: number; title: string }[] }).folders?.find(
              (f) => f.id === s.filter.folderId,
            );
      return {
        title: feed ? feedLabel(feed) : folder ? folder.title : 'All feeds',
        siteUrl: feed?.siteUrl ?? null,
      };
    }),
  );
  const show = useApp((s) => s.filter.show);
  // My posts is a page of its own: the heading says so, and the river's filter does not apply.
  const posts = useApp((s) => s.page === 'posts');
  const setFilter = useApp((s) => s.setFilter);
  // Summed when the feeds change, not on every store update (1,000 feeds: bench:river).
  const feeds = useApp((s) => s.feeds);
  const unread = useMemo(() => totalUnread(feeds), [feeds]);

  // The unread count in the window's title (the taskbar, the browser tab). Setting the title is
  // not free (about 2 ms a time in bench:river): while j is held, it follows once reading pauses.
  useEffect(() => {
    const timer = setTimeout(() => {
      document.title = unread > 0 ? `(${unread}) Tidings` : 'Tidings';
    }, TITLE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [unread]);

  return (
    <div className="river-heading">
      <h1 className="river-title" title={posts ? undefined : selected.title}>
        {posts ? (
          'My posts'
        ) : isWebUrl(selected.siteUrl) ? (
          <a href={selected.siteUrl} target="_blank" rel="noopener noreferrer">
            {selected.title}
          </a>
        ) : (
          selected.title
        )}
      </h1>
      <fieldset className="segmented" hidden={posts}>
        <legend className="visually-hidden">Show</legend>
        {SHOWS.map((option) => (
          <button
            key={option.value}
            type="button"
            aria-pressed={show === option.value}
            onClick={() => setFilter({ show: option.value })}
            data-testid={`show-${option.value}`}
          >
            {option.label}
          </button>
        ))}
      </fieldset>
    </div>
  );
}
