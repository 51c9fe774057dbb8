/**
 * Settings > Mute filters for every feed. Like every field in Settings, what is added or deleted
 * here waits for the page's Save (issue 35); a feed's own filters are in its settings dialog.
 */
import { useState } from 'react';
import type { MuteFilterInput } from '../../../../src/app/api';
import { MuteFilterFields, type ShownFilter } from '../../components/MuteFilterEditor';
import { SettingsSection } from '../../components/SettingsSection';
import { useSettingsSection } from '../../components/settings-drafts';
import { useApp } from '../../store/context';

export function MuteFiltersSection() {
  const all = useApp((s) => s.muteFilters);
  const addMuteFilter = useApp((s) => s.addMuteFilter);
  const deleteMuteFilter = useApp((s) => s.deleteMuteFilter);
  const [deleted, setDeleted] = useState<number[]>([]);
  const [added, setAdded] = useState<MuteFilterInput[]>([]);
  const saved = all.filter((f) => f.feedId === null);

  useSettingsSection({
    label: 'Mute filters',
    dirty: deleted.length > 0 || added.length > 0,
    async save() {
      for (const id of deleted) await deleteMuteFilter(id);
      setDeleted([]);
      const refused: MuteFilterInput[] = [];
      const reasons: string[] = [];
      for (const input of added) {
        const result = await addMuteFilter(input);
        if (!result.ok) {
          refused.push(input);
          reasons.push(`${input.pattern}: ${result.error.message}`);
        }
      }
      // What the core refused stays here to be mended; the rest is saved.
      setAdded(refused);
      return reasons.length > 0 ? reasons.join(' ') : null;
    },
    discard() {
      setDeleted([]);
      setAdded([]);
    },
  });

  const shown: ShownFilter[] = [
    ...saved
      .filter((f) => !deleted.includes(f.id))
      .map((f) => ({ ...f, key: `saved-${f.id}`, remove: () => setDeleted((d) => [...d, f.id]) })),
    ...added.map((input, i) => ({
      ...input,
      key: `new-${i}-${input.pattern}`,
      unsaved: true,
      remove: () => setAdded((a) => a.filter((_, j) => j !== i)),
    })),
  ];

  return (
    <SettingsSection id="settings-mute" title="Mute filters for every feed">
      <p className="settings-note">
        Items that match are hidden or marked read as they arrive; a muted item says why and can be un-muted.
        A feed's own filters are in its settings (the feed's ⋯ menu).
      </p>
      <MuteFilterFields
        feedId={null}
        filters={shown}
        onAdd={async (input) => {
          setAdded((a) => [...a, input]);
          return null;
        }}
      />
    </SettingsSection>
  );
}
