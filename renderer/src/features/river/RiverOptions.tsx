import { memo } from 'react';
import { useApp } from '../../store/context';
import type { RiverSort, RiverView } from '../../store/river-slice';
import { MarkReadMenu } from './MarkReadMenu';

/**
 * Marking read (MarkReadMenu), how the river is laid out (river, titles only, reading pane) and in
 * which order; remembered. Memoised: the river re-renders with its groups, these need not.
 */
export const RiverOptions = memo(function RiverOptions() {
  const sort = useApp((s) => s.filter.sort);
  const view = useApp((s) => s.view);
  const setFilter = useApp((s) => s.setFilter);
  const setView = useApp((s) => s.setView);
  return (
    <div className="river-options">
      <MarkReadMenu />
      <label className="visually-hidden" htmlFor="river-view">
        View
      </label>
      <select
        id="river-view"
        value={view}
        onChange={(e) => setView(e.target.value as RiverView)}
        data-testid="river-view"
      >
        <option value="river">River</option>
        <option value="compact">Titles only</option>
        <option value="pane">Reading pane</option>
      </select>
      <label className="visually-hidden" htmlFor="river-sort">
        Order
      </label>
      <select
        id="river-sort"
        value={sort}
        onChange={(e) => setFilter({ sort: e.target.value as RiverSort })}
        data-testid="river-sort"
      >
        <option value="newest">Newest first</option>
        <option value="oldest">Oldest first</option>
      </select>
    </div>
  );
});
