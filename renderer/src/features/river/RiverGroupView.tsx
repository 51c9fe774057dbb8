import { memo } from 'react';
import { ItemCard } from '../../components/ItemCard';
import { RelativeTime } from '../../components/RelativeTime';
import { isWebUrl } from '../../lib/format';
import type { RiverRow } from './river-rows';

/**
 * River5's unit: one feed update, under the feed's name and when it came in. A big update is cut
 * into rows; the first row is the group (data-testid river-group), the others continue it.
 */
export const RiverRowView = memo(function RiverRowView({ row }: { row: RiverRow }) {
  const { group } = row;
  const feedLink = isWebUrl(group.feedLink) ? group.feedLink : null;
  const items = row.items.map((item) => <ItemCard key={item.id} item={item} feedLink={feedLink} />);
  const className = `group${row.last ? ' group-end' : ''}`;
  if (!row.first) return <div className={`${className} group-continued`}>{items}</div>;
  return (
    <section
      className={className}
      data-testid="river-group"
      data-feed-id={group.feedId}
      aria-label={group.feedTitle}
    >
      <header className="group-head">
        {feedLink ? (
          <a className="group-title" href={feedLink} target="_blank" rel="noopener noreferrer">
            {group.feedTitle}
          </a>
        ) : (
          <span className="group-title">{group.feedTitle}</span>
        )}
        <RelativeTime className="group-time" iso={group.updatedAt} />
        {group.items.length > row.items.length && (
          <span className="group-count">{group.items.length} items</span>
        )}
      </header>
      {items}
    </section>
  );
});
