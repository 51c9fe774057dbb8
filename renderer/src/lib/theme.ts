/**
 * The colour theme: Light, Dark, or the system's (the default). The choice is the renderer's own
 * (localStorage, like the sidebar's state), so browser mode and Electron keep it alike. It is
 * resolved here to `data-theme="light" | "dark"` on <html>, which the style sheets key their dark
 * colours on (one dark block each, no copy per media query); "system" follows
 * prefers-color-scheme live, which in Electron is main's View > Theme menu (nativeTheme).
 */

export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'Same as the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const STORAGE_KEY = 'tidings.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function isChoice(value: unknown): value is ThemeChoice {
  return value === 'system' || value === 'light' || value === 'dark';
}

/** The stored choice; 'system' when none, unreadable, or storage is refused. */
export function storedTheme(): ThemeChoice {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    return isChoice(raw) ? raw : 'system';
  } catch {
    return 'system';
  }
}

function systemIsDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

let current: ThemeChoice = 'system';
let listening = false;

function paint(): void {
  const dark = current === 'dark' || (current === 'system' && systemIsDark());
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** Applies a choice at once, and keeps following the system while the choice is 'system'. */
export function applyTheme(choice: ThemeChoice): void {
  current = choice;
  paint();
  if (!listening && typeof window.matchMedia === 'function') {
    listening = true;
    window.matchMedia(DARK_QUERY).addEventListener('change', () => {
      if (current === 'system') paint();
    });
  }
}

/** Applies and remembers a choice (storage refused: it lasts the session). */
export function setTheme(choice: ThemeChoice): void {
  applyTheme(choice);
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, choice);
  } catch {
    // Kept for this session only.
  }
}

export function currentTheme(): ThemeChoice {
  return current;
}
