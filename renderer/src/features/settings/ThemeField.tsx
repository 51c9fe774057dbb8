/**
 * Settings > Reading > Theme: Light, Dark, or the system's. Applied and remembered on the click
 * (a look is judged by seeing it), not held for Save like the core's settings.
 */
import { useState } from 'react';
import { currentTheme, setTheme, THEME_CHOICES, type ThemeChoice } from '../../lib/theme';

export function ThemeField() {
  const [choice, setChoice] = useState<ThemeChoice>(currentTheme);
  return (
    <div role="radiogroup" aria-labelledby="settings-theme-label" className="settings-radios">
      <span id="settings-theme-label" className="settings-label">
        Theme
      </span>
      {THEME_CHOICES.map((c) => (
        <label key={c.value} className="settings-check">
          <input
            type="radio"
            name="theme"
            value={c.value}
            checked={choice === c.value}
            onChange={() => {
              setTheme(c.value);
              setChoice(c.value);
            }}
            data-testid={`settings-theme-${c.value}`}
          />
          <span>{c.label}</span>
        </label>
      ))}
    </div>
  );
}
