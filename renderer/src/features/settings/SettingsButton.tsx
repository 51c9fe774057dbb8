/** The toolbar's Settings toggle (the panel loads on first open: SettingsPanel, its own chunk). */
import { PanelToggle } from '../../components/PanelToggle';

export function SettingsButton({ open, onToggle }: { open: boolean; onToggle(): void }) {
  return (
    <PanelToggle label="Settings" title="Settings" open={open} onToggle={onToggle} testId="settings-toggle" />
  );
}
