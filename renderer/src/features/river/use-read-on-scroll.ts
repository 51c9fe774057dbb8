/**
 * Reading marks read as you go (issue 35, Settings.markReadOnScroll): an item that was on screen
 * and then scrolled up past the river's top edge has been read. Only items seen pass: items that
 * arrive above the one being read (the "new items above" pill), and items a dragged scrollbar
 * jumped over, stay unread.
 *
 * An IntersectionObserver watches the items the virtualiser has in the page (a MutationObserver
 * tells it which), so nothing is measured in the scroll handler. An item dropped from the page
 * while the river scrolled down, before the observer said it left (a fling of several rows in
 * one frame), has passed the top too. The ids go to readSoon, which sends them in batches.
 */
import { type RefObject, useEffect } from 'react';

const ITEM = '[data-item-id]';

export function useReadOnScroll(
  scroller: RefObject<HTMLElement | null>,
  enabled: boolean,
  readSoon: (ids: number[]) => void,
): void {
  useEffect(() => {
    const root = scroller.current;
    if (!enabled || !root || typeof IntersectionObserver === 'undefined') return;
    /** Item ids on screen at some point, with the scroll offset when last seen there. */
    const seen = new Map<number, number>();
    const idOf = (el: Element) => Number((el as HTMLElement).dataset.itemId);
    // The scroll offset, kept from scroll events: reading scrollTop in the observers' callbacks
    // forced a layout each time (bench:river, j held down).
    let top = root.scrollTop;
    const onScroll = () => {
      top = root.scrollTop;
    };
    root.addEventListener('scroll', onScroll, { passive: true });

    const io = new IntersectionObserver(
      (entries) => {
        const passed: number[] = [];
        for (const entry of entries) {
          const id = idOf(entry.target);
          if (entry.isIntersecting) seen.set(id, top);
          else if (
            // Passed the top because the river scrolled down since (not a window made narrower).
            top > (seen.get(id) ?? Number.POSITIVE_INFINITY) &&
            entry.rootBounds &&
            entry.boundingClientRect.bottom <= entry.rootBounds.top + 1
          ) {
            seen.delete(id);
            passed.push(id);
          }
        }
        if (passed.length > 0) readSoon(passed);
      },
      { root },
    );
    const watch = (node: Node) => {
      if (!(node instanceof Element)) return;
      if (node.matches(ITEM)) io.observe(node);
      for (const el of node.querySelectorAll(ITEM)) io.observe(el);
    };
    const dropped = (node: Node, into: number[]) => {
      if (!(node instanceof Element)) return;
      const items = node.matches(ITEM) ? [node] : [...node.querySelectorAll(ITEM)];
      for (const el of items) {
        io.unobserve(el);
        const id = idOf(el);
        const at = seen.get(id);
        if (at !== undefined && top > at) {
          seen.delete(id);
          into.push(id);
        }
      }
    };
    const mo = new MutationObserver((records) => {
      const passed: number[] = [];
      for (const record of records) {
        for (const node of record.addedNodes) watch(node);
        for (const node of record.removedNodes) dropped(node, passed);
      }
      if (passed.length > 0) readSoon(passed);
    });
    watch(root);
    mo.observe(root, { childList: true, subtree: true });
    return () => {
      root.removeEventListener('scroll', onScroll);
      mo.disconnect();
      io.disconnect();
    };
  }, [scroller, enabled, readSoon]);
}
