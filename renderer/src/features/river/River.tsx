/**
 * The river, virtualised (@tanstack/react-virtual, dynamic measurement): only the rows near the
 * viewport are in the DOM, so a river of thousands of items scrolls like a short one. A row is a
 * group, or a chunk of a big group (river-rows.ts).
 *
 * Keeping the reader's place: when new groups arrive on top while the reader is scrolled down, the
 * group at the top of the viewport stays where it was (measured heights are kept by group key, and
 * the virtualiser corrects for groups above the viewport whose real height differs from the
 * estimate). At the very top, the new groups simply appear.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useApp } from '../../store/context';
import { RiverRowView } from './RiverGroupView';
import { riverRows } from './river-rows';

const ESTIMATED_ROW_HEIGHT = 260;
/** Start loading the next page when this many rows are left below the viewport. */
const PREFETCH_ROWS = 4;

export function River() {
  const groups = useApp((s) => s.groups);
  const status = useApp((s) => s.riverStatus);
  const nextCursor = useApp((s) => s.nextCursor);
  const loadingMore = useApp((s) => s.loadingMore);
  const loadMore = useApp((s) => s.loadMore);
  const show = useApp((s) => s.filter.show);
  const scroller = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ key: string | number | bigint; offset: number } | null>(null);

  const list = useMemo(() => riverRows(groups), [groups]);
  const virtualizer = useVirtualizer({
    count: list.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    getItemKey: (index) => list[index]!.key,
    overscan: 3,
  });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows[rows.length - 1]?.index ?? -1;

  function rememberAnchor() {
    const el = scroller.current;
    if (!el || el.scrollTop < 8) {
      anchor.current = null;
      return;
    }
    const row = virtualizer.getVirtualItemForOffset(el.scrollTop);
    anchor.current = row ? { key: row.key, offset: el.scrollTop - row.start } : null;
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the rows change, by design.
  useLayoutEffect(() => {
    const kept = anchor.current;
    if (!kept) return;
    const index = list.findIndex((row) => row.key === kept.key);
    // getOffsetForIndex recomputes measurements: rows measured during this commit count already.
    const start = index >= 0 ? virtualizer.getOffsetForIndex(index, 'start')?.[0] : undefined;
    const el = scroller.current;
    if (start === undefined || !el) return;
    const target = start + kept.offset;
    if (Math.abs(target - el.scrollTop) > 1) virtualizer.scrollToOffset(target);
  }, [list]);

  useEffect(() => {
    if (nextCursor && !loadingMore && lastIndex >= list.length - PREFETCH_ROWS) void loadMore();
  }, [lastIndex, list.length, nextCursor, loadingMore, loadMore]);

  return (
    <div ref={scroller} className="river-scroll" data-testid="river" onScroll={rememberAnchor}>
      {status === 'loading' && <p className="river-note">Loading the river…</p>}
      {status === 'error' && <p className="river-note">The river could not be loaded.</p>}
      {status === 'ready' && groups.length === 0 && (
        <p className="river-note" data-testid="river-empty">
          {show === 'unread'
            ? 'No unread items. You are all caught up.'
            : show === 'starred'
              ? 'No starred items yet. Star an item to keep it forever.'
              : 'No items yet. New items flow in here, newest first, as your feeds update.'}
        </p>
      )}
      <div className="river-list" style={{ height: virtualizer.getTotalSize() }}>
        <div className="river-window" style={{ transform: `translateY(${rows[0]?.start ?? 0}px)` }}>
          {rows.map((row) => (
            <div key={row.key} data-index={row.index} ref={virtualizer.measureElement}>
              <RiverRowView row={list[row.index]!} />
            </div>
          ))}
        </div>
      </div>
      {status === 'ready' && groups.length > 0 && (
        <div className="river-end">
          {nextCursor ? (
            <button
              type="button"
              disabled={loadingMore}
              onClick={() => void loadMore()}
              data-testid="load-more"
            >
              {loadingMore ? 'Loading…' : 'Load more'}
            </button>
          ) : (
            <span className="river-note">That is the whole river.</span>
          )}
        </div>
      )}
    </div>
  );
}
