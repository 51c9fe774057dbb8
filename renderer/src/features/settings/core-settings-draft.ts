/**
 * A Settings section over some of the core's settings (Reading's interval, Real time's tunnel,
 * Privacy's pictures...): each its own draft, so the leave question names the very sections
 * edited, and each sends only the fields that changed.
 */
import type { Settings } from '../../../../src/app/api';
import { errorMessage } from '../../api/api-error';
import { getClient } from '../../api/client';
import { type SettingsDraft, useSettingsDraft } from '../../components/settings-drafts';

export function pick<K extends keyof Settings>(settings: Settings, keys: readonly K[]): Pick<Settings, K> {
  const out = {} as Pick<Settings, K>;
  for (const key of keys) out[key] = settings[key];
  return out;
}

/** The sections open together and each loads at once: one request in flight answers them all. */
let loading: Promise<Settings> | null = null;
function loadSettings(): Promise<Settings> {
  loading ??= getClient()
    .getSettings()
    .finally(() => {
      loading = null;
    });
  return loading;
}

export function useCoreSettingsDraft<K extends keyof Settings>(
  label: string,
  keys: readonly K[],
  /** After a save: what else follows the new settings (the river's picture policy...). */
  saved?: (settings: Settings) => void,
): SettingsDraft<Pick<Settings, K>> {
  return useSettingsDraft<Pick<Settings, K>>({
    label,
    load: async () => pick(await loadSettings(), keys),
    async save(before, draft) {
      const patch: Partial<Settings> = {};
      for (const key of keys) if (draft[key] !== before[key]) Object.assign(patch, { [key]: draft[key] });
      try {
        const next = await getClient().updateSettings(patch);
        saved?.(next);
        return { ok: true, value: pick(next, keys) };
      } catch (e) {
        return { ok: false, message: errorMessage(e) };
      }
    },
  });
}
