import { memo } from 'react';
import type { RiverGroup } from '../../../../src/app/api';
import { ItemCard } from '../../components/ItemCard';
import { podcastArt } from '../../components/ItemMedia';
import { RelativeTime } from '../../components/RelativeTime';
import { RemoteImage } from '../../components/RemoteImage';
import { isWebUrl } from '../../lib/format';
import { formatAbsolute } from '../../lib/relative-time';
import { useApp } from '../../store/context';
import { feedById } from '../../store/river-slice';
import type { RiverRow } from './river-rows';

/**
 * When the group's news is from: when it came in, but never later than its newest item, so a
 * heading never says "just now" above items that say "2 h ago" (a live fetch of an older post).
 */
export function groupTime(group: RiverGroup): string {
  const arrived = Date.parse(group.updatedAt);
  let newest = Number.NEGATIVE_INFINITY;
  for (const item of group.items) {
    const t = item.date ? Date.parse(item.date) : Number.NaN;
    if (!Number.isFinite(t)) return group.updatedAt; // an undated item: its time is the arrival
    newest = Math.max(newest, t);
  }
  return newest < arrived ? new Date(newest).toISOString() : group.updatedAt;
}

/**
 * River5's unit: one feed update, under the feed's name and when it came in. A big update is cut
 * into rows; the first row is the group (data-testid river-group), the others continue it. A
 * group the core capped ends with "N more from this feed".
 */
export const RiverRowView = memo(function RiverRowView({
  row,
  compact,
}: {
  row: RiverRow;
  compact: boolean;
}) {
  const { group } = row;
  const expandGroup = useApp((s) => s.expandGroup);
  const favicon = useApp((s) => feedById(s.feeds, group.feedId)?.favicon ?? null);
  const policy = useApp((s) => s.imagePolicy);
  const allowed = useApp((s) => feedById(s.feeds, group.feedId)?.loadImages ?? false);
  const feedLink = isWebUrl(group.feedLink) ? group.feedLink : null;
  // A podcast's artwork, once, small and square, by the heading (not on every episode).
  const art = compact ? null : (group.items.map(podcastArt).find((a) => a !== null) ?? null);
  const items = row.items.map((item) => (
    <ItemCard key={item.id} item={item} feedLink={feedLink} compact={compact} groupArt={art} />
  ));
  const more = row.last && group.moreInGroup > 0 && (
    <button
      type="button"
      className="group-more"
      data-testid="group-more"
      onClick={() => void expandGroup(group)}
    >
      {group.moreInGroup} more from {group.feedTitle}
    </button>
  );
  const className = `group${row.end ? ' group-end' : ''}${compact ? ' group-compact' : ''}`;
  if (!row.heading) {
    return (
      <div className={`${className} group-continued`}>
        {items}
        {more}
      </div>
    );
  }
  const total = group.items.length + group.moreInGroup;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset is for form controls; this groups river items.
    <section
      className={className}
      data-testid="river-group"
      data-feed-id={group.feedId}
      // A group, not a landmark: a river holds hundreds of updates, and two of one feed can share
      // a name (fetched within the same minute), which landmarks may not (axe landmark-unique).
      role="group"
      aria-label={`${group.feedTitle}, ${formatAbsolute(groupTime(group))}`}
    >
      <header className="group-head">
        {art && <RemoteImage src={art} alt="" className="group-art" policy={policy} allowed={allowed} />}
        {!art && favicon && isWebUrl(favicon) && policy !== 'clickToLoad' && (
          <img
            className="group-icon"
            src={favicon}
            alt=""
            width={16}
            height={16}
            referrerPolicy="no-referrer"
          />
        )}
        {feedLink ? (
          <a className="group-title" href={feedLink} target="_blank" rel="noopener noreferrer">
            {group.feedTitle}
          </a>
        ) : (
          <span className="group-title">{group.feedTitle}</span>
        )}
        <RelativeTime className="group-time" iso={groupTime(group)} />
        {total > row.items.length && <span className="group-count">{total} items</span>}
      </header>
      {items}
      {more}
    </section>
  );
});
