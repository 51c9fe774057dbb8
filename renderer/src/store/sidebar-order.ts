/**
 * The feeds in the order the sidebar lists them, for `n`/`p` (next and previous feed with unread
 * items). The sidebar is windowed, so its DOM holds only the rows near sight: FeedList publishes the
 * whole order here whenever its rows change (folders collapsed leave their feeds out, as on screen).
 * Not store state: nothing renders from it, and publishing it must not wake every subscriber.
 */
let order: readonly number[] | null = null;

/** FeedList: the feed ids of its rows, top to bottom; null once it is gone. */
export function publishSidebarOrder(ids: readonly number[] | null): void {
  order = ids;
}

/** The sidebar's feed order, or null when no sidebar has published one. */
export function sidebarOrder(): readonly number[] | null {
  return order;
}
