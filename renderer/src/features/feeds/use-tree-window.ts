/**
 * The feed tree, windowed (@tanstack/react-virtual, as the river): only the rows near the list's
 * viewport are in the DOM, with spacers standing for the rest. A thousand rows in the DOM cost every
 * j press in the river a style, layout, paint and hit-test pass over about 3,000 paint layers and
 * 1,000 lazy favicons' intersection checks (bench:river's trace), and held back the first paint.
 *
 * Rows stay in normal flow (no absolute positioning): a spacer before a rendered run and one after
 * the last stand for the rows left out, so focus outlines, menus hanging below a row and drop
 * targets behave as in an ordinary list. The rows the keyboard or a command needs (the roving
 * tabindex's row, a row with its menu or rename open) are always rendered, wherever they are: Tab
 * must find the tree's one stop, and a row scrolled away must keep its open menu and its focus.
 */
import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useLayoutEffect, useMemo, useState } from 'react';
import type { TreeRow } from './feed-tree';

/** One line per feed (styles.css: .tree-row); measured rows correct it. */
const ROW_HEIGHT = 24;
/** Rows rendered beyond the list's viewport once the river's first page is on screen. */
const OVERSCAN_ROWS = 20;

export interface WindowedRow {
  row: TreeRow;
  /** The row's place in `rows`: the virtualiser measures the row by it (data-index). */
  index: number;
  /** Height of the spacer before this row (the rows left out since the previous rendered one). */
  gapAbove: number;
}

export interface TreeWindow {
  rows: WindowedRow[];
  /** Height of the spacer after the last rendered row. */
  gapBelow: number;
  /** The ref every rendered row carries (with data-index), so its real height is used. */
  measure(element: HTMLElement | null): void;
  /** Scrolls the list just enough to show the row, if it is in the tree and out of sight. */
  reveal(key: string): void;
}

/**
 * `scroller` is the element that scrolls (the sidebar's feed list); `start` the element just above
 * the first windowed row (the "All" row): the rows begin at its bottom. `pinned` are keys that stay
 * rendered wherever they are.
 */
export function useTreeWindow(
  rows: readonly TreeRow[],
  scroller: RefObject<HTMLElement | null>,
  start: RefObject<HTMLElement | null>,
  pinned: ReadonlyArray<string | null>,
  firstPaintDone: boolean,
): TreeWindow {
  // Where the rows begin inside the scrolled content: below the list's heading and "All". It can
  // change with the sidebar's width (the heading may wrap), so it is read after every commit;
  // offsetTop is against the scroller (styles.css makes it the rows' offset parent).
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const element = start.current;
    if (!element) return;
    const margin = element.offsetTop + element.offsetHeight;
    if (margin !== scrollMargin) setScrollMargin(margin);
  });

  const indexOf = useMemo(() => new Map(rows.map((row, index) => [row.key, index])), [rows]);
  const pinnedIndexes = pinned
    .map((key) => (key === null ? undefined : indexOf.get(key)))
    .filter((index): index is number => index !== undefined);
  const pinnedKey = pinnedIndexes.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `pinnedKey` stands for `pinnedIndexes`.
  const rangeExtractor = useMemo(() => withPinned(pinnedIndexes), [pinnedKey]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]!.key,
    overscan: firstPaintDone ? OVERSCAN_ROWS : 0,
    scrollMargin,
    rangeExtractor,
    // Scroll updates render with React's normal batching, as the river's (bench:river).
    useFlushSync: false,
  });

  const windowed: WindowedRow[] = [];
  let end = scrollMargin;
  for (const item of virtualizer.getVirtualItems()) {
    const row = rows[item.index];
    if (!row) continue;
    windowed.push({ row, index: item.index, gapAbove: Math.max(0, item.start - end) });
    end = item.end;
  }
  const gapBelow = Math.max(0, scrollMargin + virtualizer.getTotalSize() - end);
  const reveal = (key: string) => {
    const index = indexOf.get(key);
    if (index !== undefined) virtualizer.scrollToIndex(index, { align: 'auto' });
  };
  return { rows: windowed, gapBelow, measure: virtualizer.measureElement, reveal };
}

/** The rows in and near the viewport, plus the pinned ones, in order. */
function withPinned(pinned: readonly number[]): (range: Range) => number[] {
  return (range) => {
    const shown = defaultRangeExtractor(range);
    const extra = pinned.filter((index) => index < range.count && !shown.includes(index));
    return extra.length === 0 ? shown : [...shown, ...extra].sort((a, b) => a - b);
  };
}
