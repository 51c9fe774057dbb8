import { useEffect } from 'react';
import type { RiverGroup } from '../../../../src/app/api';
import { ItemCard } from '../../components/ItemCard';
import { isWebUrl } from '../../lib/format';
import { useApp, useAppStore } from '../../store/context';
import { isRead } from '../../store/reading-marks';

function groupOf(groups: readonly RiverGroup[], id: number | null): RiverGroup | null {
  if (id === null) return null;
  return groups.find((g) => g.items.some((i) => i.id === id)) ?? null;
}

/** The reading pane: the selected item, whole, beside the list (view 'pane'). */
export function ReadingPane() {
  // Narrow selectors returning stored objects (stable identities), never a new object.
  const group = useApp((s) => groupOf(s.groups, s.selectedItemId));
  const item = useApp(
    (s) => groupOf(s.groups, s.selectedItemId)?.items.find((i) => i.id === s.selectedItemId) ?? null,
  );
  const markRead = useApp((s) => s.markRead);
  const store = useAppStore();
  // Shown in the pane is read (as in other readers); m makes it unread again and it stays so.
  const shownId = item?.id ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a newly shown item is marked.
  useEffect(() => {
    if (item && !isRead(store.getState(), item)) void markRead([item.id], true);
  }, [shownId]);
  return (
    <section className="reading-pane" aria-label="Reading pane" data-testid="reading-pane">
      {item && group ? (
        <ItemCard
          key={item.id}
          item={item}
          feedLink={isWebUrl(group.feedLink) ? group.feedLink : null}
          feedTitle={group.feedTitle}
          full
        />
      ) : (
        <p className="river-note">Pick an item (or press j) to read it here.</p>
      )}
    </section>
  );
}
