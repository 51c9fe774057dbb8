import { useShallow } from 'zustand/react/shallow';
import { isWebUrl } from '../../lib/format';
import { feedLabel } from '../../lib/group-feeds';
import { useApp } from '../../store/context';
import type { RiverShow } from '../../store/river-slice';

const SHOWS: { value: RiverShow; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
  { value: 'starred', label: 'Starred' },
];

/** What the river shows: which feed (or all), and all / unread / starred. */
export function RiverHeading() {
  const selected = useApp(
    useShallow((s) => {
      const feed = s.filter.feedId === null ? undefined : s.feeds.find((f) => f.id === s.filter.feedId);
      return { title: feed ? feedLabel(feed) : 'All feeds', siteUrl: feed?.siteUrl ?? null };
    }),
  );
  const show = useApp((s) => s.filter.show);
  const setFilter = useApp((s) => s.setFilter);

  return (
    <div className="river-heading">
      <h1 className="river-title">
        {isWebUrl(selected.siteUrl) ? (
          <a href={selected.siteUrl} target="_blank" rel="noopener noreferrer">
            {selected.title}
          </a>
        ) : (
          selected.title
        )}
      </h1>
      <fieldset className="segmented">
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
