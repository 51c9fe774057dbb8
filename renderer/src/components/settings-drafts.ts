/**
 * Settings has one way to save (issue 35): every field waits for the page's one Save, and leaving
 * the page with edits not saved asks first. This is how a section takes part, whichever feature
 * it comes from (features do not import each other; this is shared):
 *
 *   const feed = useSettingsDraft({
 *     id: 'publish', label: 'Your feed',
 *     load: () => client.getPublishSettings(),
 *     save: async (saved, draft) => { const r = await client.updatePublishSettings(diff(saved, draft));
 *                                      return r.ok ? r : { ok: false, message: r.error.message }; },
 *   });
 *   // feed.draft to show, feed.set({ title }) on a change, feed.status for why it could not load or save.
 *
 * A section whose draft is not one object (a list of filters to add and delete) registers itself
 * with useSettingsSection({ label, dirty, save, discard }). A button that acts at once and says so
 * ("Back up now", "Restore...") is an action, not a field: it needs neither.
 *
 * The registry is a module-level store (one Settings page at a time), read by the page's Save and
 * by the app's leave question (useAnySettingsUnsaved), and kept out of the renderer's store: it is UI
 * state of one page, not a mirror of the core.
 */
import { useCallback, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { errorMessage } from '../api/api-error';

/** Null when saved; else why not, in words. */
export type SaveOutcome = string | null;

export interface SettingsSection {
  /**
   * The page section it is in, named in the leave question: "Your feed", "Reading". Parts of one
   * section share its name (Reading's fields and its theme): it is said once.
   */
  label: string;
  /** Edits not saved yet. */
  dirty: boolean;
  save(): Promise<SaveOutcome>;
  /** Forgets the edits (the page is left without saving them). */
  discard(): void;
}

const sections = new Map<string, SettingsSection>();
const listeners = new Set<() => void>();
let version = 0;
/** The page's Save: running, and what the last one came to (null once something changes again). */
let saving = false;
let result: { ok: boolean; text: string } | null = null;

function changed(): void {
  version++;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Takes part in the one Save and the leave question while mounted. */
export function useSettingsSection(section: SettingsSection): void {
  const id = useId();
  // The latest section, so registering does not depend on callbacks' identities.
  const latest = useRef(section);
  latest.current = section;
  useEffect(() => {
    sections.set(id, {
      get label() {
        return latest.current.label;
      },
      get dirty() {
        return latest.current.dirty;
      },
      save: () => latest.current.save(),
      discard: () => latest.current.discard(),
    });
    changed();
    return () => {
      sections.delete(id);
      changed();
    };
  }, [id]);
  // A change of dirtiness is news to the Save bar and the leave question; a new edit makes the
  // last "Saved." stale.
  useEffect(() => {
    if (section.dirty) result = null;
    changed();
  }, [section.dirty]);
}

export interface SettingsSaveState {
  saving: boolean;
  result: { ok: boolean; text: string } | null;
  /** The labels of the sections with edits not saved. */
  unsaved: string[];
}

/** The Save bar's state, live. */
export function useSettingsSaveState(): SettingsSaveState {
  useSyncExternalStore(subscribe, () => version);
  return { saving, result, unsaved: unsavedSettings() };
}

/** The page was closed: its last result goes with it. */
export function forgetSaveResult(): void {
  result = null;
  changed();
}

/**
 * Whether any section has edits not saved, live: a yes/no snapshot, so the app around it renders
 * again only when that answer changes (not at each section's mount, edit or Save).
 */
export function useAnySettingsUnsaved(): boolean {
  return useSyncExternalStore(subscribe, () => unsavedSettings().length > 0);
}

/** The sections with edits not saved, by name, once each, in the page's order. */
export function unsavedSettings(): string[] {
  return [...new Set([...sections.values()].filter((s) => s.dirty).map((s) => s.label))];
}

/**
 * The page's one Save (its button, Enter in a field, the leave question's "Save"): saves every
 * section with edits, together. Returns the reasons of those that could not be saved ([] when all
 * were); the Save bar shows the same.
 */
export async function saveAllSettings(): Promise<string[]> {
  const dirty = [...sections.values()].filter((s) => s.dirty);
  saving = true;
  result = null;
  changed();
  const outcomes = await Promise.all(
    dirty.map(async (s) => {
      try {
        const why = await s.save();
        return why === null ? null : `${s.label}: ${why}`;
      } catch (e) {
        return `${s.label}: ${errorMessage(e)}`;
      }
    }),
  );
  const errors = outcomes.filter((o): o is string => o !== null);
  saving = false;
  result =
    errors.length > 0
      ? { ok: false, text: `Not saved: ${errors.join(' ')}` }
      : { ok: true, text: dirty.length > 0 ? 'Saved.' : 'Nothing to save: nothing was changed.' };
  changed();
  return errors;
}

export function discardAllSettings(): void {
  for (const s of sections.values()) if (s.dirty) s.discard();
}

export type DraftSave<T> = (
  saved: T,
  draft: T,
) => Promise<{ ok: true; value: T } | { ok: false; message: string }>;

export interface SettingsDraft<T> {
  /** As last loaded or saved (null while loading). */
  saved: T | null;
  /** What the fields show (null while loading). */
  draft: T | null;
  set(patch: Partial<T>): void;
  dirty: boolean;
  /** Why this section could not load, or could not save (null when all is well). */
  status: { ok: boolean; text: string } | null;
}

/** One object of settings, loaded from the core, edited as a draft, saved by the page's Save. */
export function useSettingsDraft<T extends object>({
  label,
  load,
  save,
}: {
  label: string;
  load(): Promise<T>;
  save: DraftSave<T>;
}): SettingsDraft<T> {
  const [saved, setSaved] = useState<T | null>(null);
  const [draft, setDraft] = useState<T | null>(null);
  const [status, setStatus] = useState<SettingsDraft<T>['status']>(null);
  const loadRef = useRef(load);

  useEffect(() => {
    let live = true;
    loadRef.current().then(
      (value) => {
        if (!live) return;
        setSaved(value);
        setDraft(value);
      },
      (e: unknown) => live && setStatus({ ok: false, text: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, []);

  const dirty = saved !== null && draft !== null && JSON.stringify(saved) !== JSON.stringify(draft);

  const set = useCallback((patch: Partial<T>) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setStatus(null);
  }, []);

  useSettingsSection({
    label,
    dirty,
    async save() {
      if (!saved || !draft) return null;
      const result = await save(saved, draft);
      if (!result.ok) {
        setStatus({ ok: false, text: result.message });
        return result.message;
      }
      setSaved(result.value);
      setDraft(result.value);
      setStatus(null);
      return null;
    },
    discard() {
      setDraft(saved);
      setStatus(null);
    },
  });

  return { saved, draft, set, dirty, status };
}
