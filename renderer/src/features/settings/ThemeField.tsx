/**
 * Settings > Reading > Theme: Light, Dark, or the system's. Like every field in Settings, the
 * choice waits for Save (issue 35: one way to save); it is the renderer's own (lib/theme.ts).
 */
import { RadioGroup } from '../../components/RadioGroup';
import { useSettingsDraft } from '../../components/settings-drafts';
import { currentTheme, setTheme, THEME_CHOICES, type ThemeChoice } from '../../lib/theme';

export function ThemeField() {
  const theme = useSettingsDraft<{ theme: ThemeChoice }>({
    // A part of Reading: the leave question names the section.
    label: 'Reading',
    load: async () => ({ theme: currentTheme() }),
    async save(_, draft) {
      setTheme(draft.theme);
      return { ok: true, value: draft };
    },
  });
  if (!theme.draft) return null;
  return (
    <RadioGroup
      name="theme"
      label="Theme"
      showLabel
      value={theme.draft.theme}
      onChange={(value) => theme.set({ theme: value })}
      choices={THEME_CHOICES.map((c) => ({
        value: c.value,
        label: c.label,
        testId: `settings-theme-${c.value}`,
      }))}
    />
  );
}
