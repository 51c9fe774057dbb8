/**
 * The shell's own preferences (the core keeps its settings in its database): window place, close
 * to tray, start at login, theme, notification choices and one-time offers. Stored by
 * electron-store (main/index.ts hands it in); everything read back is checked, so a hand-edited or
 * damaged file falls back field by field to the defaults instead of breaking the start.
 */
import type { SavedWindowState } from './window-bounds.ts';

export type Theme = 'system' | 'light' | 'dark';
export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

export interface ShellPrefs {
  window: SavedWindowState;
  /** Closing the window keeps Tidings running in the tray. */
  closeToTray: boolean;
  startAtLogin: boolean;
  theme: Theme;
  /** A notification when a cloud answers the ping for one of my posts. */
  notifyPostAnswers: boolean;
  /** The suggested subscriptions were offered once (first run). */
  suggestedOffered: boolean;
  /** "Tidings is still running in the tray" was said once. */
  trayHintShown: boolean;
}

/**
 * Linux and Windows users expect a feed reader to keep running in the tray; macOS keeps its dock
 * convention (closing the window leaves the app in the dock), so there it is off by default.
 */
export function defaultPrefs(platform: NodeJS.Platform): ShellPrefs {
  return {
    window: {},
    closeToTray: platform !== 'darwin',
    startAtLogin: false,
    theme: 'system',
    notifyPostAnswers: false,
    suggestedOffered: false,
    trayHintShown: false,
  };
}

/** Whatever the file holds, a valid ShellPrefs: each bad or missing field takes its default. */
export function sanitizePrefs(raw: unknown, platform: NodeJS.Platform): ShellPrefs {
  const d = defaultPrefs(platform);
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const bool = (key: keyof ShellPrefs, fallback: boolean) =>
    typeof r[key] === 'boolean' ? (r[key] as boolean) : fallback;
  return {
    window: sanitizeWindow(r.window),
    closeToTray: bool('closeToTray', d.closeToTray),
    startAtLogin: bool('startAtLogin', d.startAtLogin),
    theme: THEMES.includes(r.theme as Theme) ? (r.theme as Theme) : d.theme,
    notifyPostAnswers: bool('notifyPostAnswers', d.notifyPostAnswers),
    suggestedOffered: bool('suggestedOffered', d.suggestedOffered),
    trayHintShown: bool('trayHintShown', d.trayHintShown),
  };
}

function sanitizeWindow(raw: unknown): SavedWindowState {
  if (!raw || typeof raw !== 'object') return {};
  const r = raw as Record<string, unknown>;
  const out: SavedWindowState = {};
  for (const key of ['x', 'y', 'width', 'height'] as const) {
    if (typeof r[key] === 'number' && Number.isFinite(r[key])) out[key] = r[key] as number;
  }
  if (typeof r.maximized === 'boolean') out.maximized = r.maximized;
  return out;
}

/** What electron-store offers (and an in-memory map in tests). */
export interface PrefsStorage {
  readonly store: unknown;
  set(key: string, value: unknown): void;
}

/** Typed, checked access to the shell's preferences. */
export class Prefs {
  private current: ShellPrefs;
  private readonly storage: PrefsStorage;

  constructor(storage: PrefsStorage, platform: NodeJS.Platform) {
    this.storage = storage;
    this.current = sanitizePrefs(storage.store, platform);
  }

  get<K extends keyof ShellPrefs>(key: K): ShellPrefs[K] {
    return this.current[key];
  }

  all(): Readonly<ShellPrefs> {
    return this.current;
  }

  set<K extends keyof ShellPrefs>(key: K, value: ShellPrefs[K]): void {
    this.current = { ...this.current, [key]: value };
    this.storage.set(key, value);
  }
}
