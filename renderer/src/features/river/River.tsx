/**
 * The river, virtualised (@tanstack/react-virtual, dynamic measurement): only the rows near the
 * viewport are in the DOM, so a river of thousands of items scrolls like a short one. A row is a
 * group, or a chunk of a big group (river-rows.ts).
 *
 * Keeping the reader's place: when new groups arrive on top while the reader is scrolled down, the
 * group at the top of the viewport stays where it was (measured heights are kept by group key, and
 * the virtualiser corrects for groups above the viewport whose real height differs from the
 * estimate), and a pill says how many new items are above. At the very top, they simply appear.
 *
 * Views: the river, a compact title-only list, or that list beside a reading pane.
 */
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { type RefObject, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { riverPainted, useFirstPaintDone } from '../../components/use-first-paint';
import { useApp } from '../../store/context';
import { feedById } from '../../store/river-slice';
import { FeedTrouble } from './FeedTrouble';
import { ReadingPane } from './ReadingPane';
import { RiverRowView } from './RiverGroupView';
import { RiverOptions } from './RiverOptions';
import { type RiverRow, riverRows } from './river-rows';
import { useReadOnScroll } from './use-read-on-scroll';
import './river.css';

const ITEM_HEIGHT = { full: 200, compact: 44 };
const HEADING_HEIGHT = 40;
/** Start loading the next page when this many rows are left below the viewport. */
const PREFETCH_ROWS = 4;
/** Rows rendered beyond the viewport, once the first page is on screen (none before: first paint). */
const OVERSCAN_ROWS = 3;

/**
 * The keys moved the selection: bring the item's top into view (a long one shows its start). A
 * component of its own, so a j re-renders this and the two cards concerned, not the river (whose
 * selectors would otherwise include the selection: bench:river). Layout effects, so the scroll
 * lands in the same frame as the selection. An item whose row is not in the page yet is scrolled
 * to by its row; it is revealed when that row comes in (`rendered`, the rows the river has in the
 * page, changes), in the same commit.
 */
function SelectionReveal({
  scroller,
  list,
  virtualizer,
  rendered,
  onScrolled,
}: {
  scroller: RefObject<HTMLElement | null>;
  list: RefObject<RiverRow[]>;
  virtualizer: Virtualizer<HTMLElement, Element>;
  rendered: string;
  /**
   * Called after it scrolled: the river's place (its anchor) is taken from here now. Its layout
   * effects run before the river's, whose anchor, taken at the last scroll event, would otherwise
   * put the river back where it was when new rows arrive in the same commit.
   */
  onScrolled(): void;
}) {
  const selectedId = useApp((s) => s.selectedItemId);
  const revealSeq = useApp((s) => s.revealSeq);
  const pending = useRef<number | null>(null);

  /** Brings the item into view if it is in the page; else scrolls its row in. True when done. */
  const attempt = (id: number): boolean => {
    const el = scroller.current;
    if (!el) return true;
    const index = list.current.findIndex((row) => row.items.some((i) => i.id === id));
    // Looked for in its own row's element, which the virtualiser holds: a search of the whole
    // river's DOM cost more than the rest of this function but its layout (bench:river, j held).
    const row = index >= 0 ? virtualizer.elementsCache.get(list.current[index]!.key) : undefined;
    const node = row?.isConnected ? row.querySelector<HTMLElement>(`[data-item-id="${id}"]`) : null;
    if (node) {
      const box = node.getBoundingClientRect();
      const frame = el.getBoundingClientRect();
      if (box.top < frame.top || box.bottom > frame.bottom) {
        el.scrollTop += box.top - frame.top - (box.height < frame.height ? 8 : 0);
        onScrolled();
      }
      node.focus({ preventScroll: true });
      return true;
    }
    if (index >= 0) {
      virtualizer.scrollToIndex(index, { align: 'start' });
      onScrolled();
    }
    return false;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: revealSeq is the trigger.
  useLayoutEffect(() => {
    if (selectedId === null || revealSeq === 0) return;
    pending.current = attempt(selectedId) ? null : selectedId;
  }, [revealSeq]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: new rows in the page are the trigger.
  useLayoutEffect(() => {
    const id = pending.current;
    if (id !== null && attempt(id)) pending.current = null;
  }, [rendered]);
  return null;
}

function newItemsAbove(list: RiverRow[], before: number, known: ReadonlySet<number>): number {
  let count = 0;
  for (let r = 0; r < before && r < list.length; r++) {
    for (const item of list[r]!.items) if (!known.has(item.id)) count++;
  }
  return count;
}

export function River() {
  const groups = useApp((s) => s.groups);
  const status = useApp((s) => s.riverStatus);
  const nextCursor = useApp((s) => s.nextCursor);
  const loadingMore = useApp((s) => s.loadingMore);
  const loadMore = useApp((s) => s.loadMore);
  const show = useApp((s) => s.filter.show);
  const sort = useApp((s) => s.filter.sort);
  const view = useApp((s) => s.view);
  // One feed's river: how it is delivered in the bar, and why it fails above the items.
  const feed = useApp((s) => (s.filter.feedId === null ? undefined : feedById(s.feeds, s.filter.feedId)));
  const failing = feed && (feed.status === 'error' || feed.status === 'gone') ? feed : null;
  const compact = view !== 'river';
  const scroller = useRef<HTMLElement>(null);
  const anchor = useRef<{ key: string | number | bigint; offset: number } | null>(null);
  const known = useRef<Set<number> | null>(null);
  const lastShape = useRef('');
  const [above, setAbove] = useState(0);
  const readOnScroll = useApp((s) => s.markReadOnScroll);
  const readSoon = useApp((s) => s.readSoon);
  const flushReadSoon = useApp((s) => s.flushReadSoon);
  // Scrolled past is read (issue 35); in the reading pane's list, the pane is where one reads.
  useReadOnScroll(scroller, readOnScroll && view !== 'pane' && status === 'ready', readSoon);
  // Leaving this river (another feed, search, Settings) sends what waits at once.
  useEffect(() => () => void flushReadSoon(), [flushReadSoon]);

  const firstPaintDone = useFirstPaintDone();
  // The rows as last rendered, for the selection's reveal (which may run before the river does).
  const listRef = useRef<RiverRow[]>([]);
  const list = useMemo(() => {
    listRef.current = riverRows(groups, undefined, listRef.current);
    return listRef.current;
  }, [groups]);
  const perItem = compact ? ITEM_HEIGHT.compact : ITEM_HEIGHT.full;
  const virtualizer = useVirtualizer({
    count: list.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) =>
      (list[index]?.heading ? HEADING_HEIGHT : 0) + (list[index]?.items.length ?? 1) * perItem,
    getItemKey: (index) => list[index]!.key,
    overscan: firstPaintDone ? OVERSCAN_ROWS : 0,
    // Scroll updates render with React's normal batching, not a synchronous render inside each
    // scroll event (measured in bench:river).
    useFlushSync: false,
  });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows[rows.length - 1]?.index ?? -1;

  function rememberAnchor() {
    const el = scroller.current;
    if (!el || el.scrollTop < 8) {
      anchor.current = null;
      if (above) setAbove(0);
      return;
    }
    const row = virtualizer.getVirtualItemForOffset(el.scrollTop);
    anchor.current = row ? { key: row.key, offset: el.scrollTop - row.start } : null;
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the rows change, by design.
  useLayoutEffect(() => {
    // Same rows with the same items (an item read or starred): nothing moved, nothing to keep.
    // Skipping matters: the offset lookup below forces a layout (bench:river, j held down).
    const shape = list.map((row) => `${row.key}:${row.items.length}`).join('|');
    if (shape === lastShape.current) return;
    lastShape.current = shape;
    const kept = anchor.current;
    const index = kept ? list.findIndex((row) => row.key === kept.key) : -1;
    // Items that arrived above the row being read: say so (newest-first rivers only).
    if (known.current && kept && index > 0 && sort === 'newest') {
      const arrived = newItemsAbove(list, index, known.current);
      if (arrived > 0) setAbove((n) => n + arrived);
    }
    known.current = new Set(list.flatMap((row) => row.items.map((i) => i.id)));
    if (!kept) return;
    // getOffsetForIndex recomputes measurements: rows measured during this commit count already.
    const start = index >= 0 ? virtualizer.getOffsetForIndex(index, 'start')?.[0] : undefined;
    const el = scroller.current;
    if (start === undefined || !el) return;
    const target = start + kept.offset;
    if (Math.abs(target - el.scrollTop) > 1) virtualizer.scrollToOffset(target);
  }, [list]);

  useEffect(() => {
    if (status !== 'loading') riverPainted();
  }, [status]);

  useEffect(() => {
    if (nextCursor && !loadingMore && lastIndex >= list.length - PREFETCH_ROWS) void loadMore();
  }, [lastIndex, list.length, nextCursor, loadingMore, loadMore]);

  const listView = (
    <section
      ref={scroller}
      id="river"
      className={`river-scroll${compact ? ' river-compact' : ''}`}
      data-testid="river"
      data-river-scroll
      tabIndex={-1}
      aria-label="River"
      onScroll={rememberAnchor}
    >
      {above > 0 && (
        <button
          type="button"
          className="new-above"
          data-testid="new-above"
          onClick={() => {
            setAbove(0);
            anchor.current = null;
            virtualizer.scrollToOffset(0);
          }}
        >
          {above === 1 ? '1 new item above' : `${above} new items above`}
        </button>
      )}
      <SelectionReveal
        scroller={scroller}
        list={listRef}
        virtualizer={virtualizer}
        rendered={`${rows[0]?.index ?? -1}:${lastIndex}:${list.length}`}
        onScrolled={rememberAnchor}
      />
      {status === 'loading' && <p className="river-note">Loading the river…</p>}
      {status === 'error' && <p className="river-note">The river could not be loaded.</p>}
      {status === 'ready' && groups.length === 0 && (
        <p className="river-note" data-testid="river-empty">
          {show === 'unread'
            ? 'No unread items. You are all caught up.'
            : show === 'starred'
              ? 'No starred items yet. Star an item to keep it forever.'
              : failing
                ? 'Nothing has been read from this feed yet.'
                : feed?.status === 'pending'
                  ? 'This feed has not been read yet: its items appear here as soon as it is.'
                  : 'No items yet. New items flow in here, newest first, as your feeds update.'}
        </p>
      )}
      <div className="river-list" style={{ height: virtualizer.getTotalSize() }}>
        <div className="river-window" style={{ transform: `translateY(${rows[0]?.start ?? 0}px)` }}>
          {rows.map((row) => (
            <div key={row.key} data-index={row.index} ref={virtualizer.measureElement}>
              <RiverRowView row={list[row.index]!} compact={compact} />
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
    </section>
  );

  const bar = (
    <div className="river-bar">
      {/* The feed's delivery line ("polled every 60 min", "real-time via ..."): the core's words. */}
      {feed && (
        <p className="river-delivery" data-testid="river-delivery">
          {feed.delivery}
        </p>
      )}
      <RiverOptions />
    </div>
  );
  const trouble = failing && <FeedTrouble key={failing.id} feed={failing} />;
  if (view !== 'pane') {
    return (
      <>
        {bar}
        {trouble}
        {listView}
      </>
    );
  }
  return (
    <>
      {bar}
      {trouble}
      <div className="river-with-pane">
        {listView}
        <ReadingPane />
      </div>
    </>
  );
}
