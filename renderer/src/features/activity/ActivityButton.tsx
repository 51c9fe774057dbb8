/** The toolbar's Activity toggle (the log itself loads on first open: ActivityLog, its own chunk). */
import { PanelToggle } from '../../components/PanelToggle';

export function ActivityButton({ open, onToggle }: { open: boolean; onToggle(): void }) {
  return (
    <PanelToggle
      label="Activity"
      title="Activity: every fetch and every rssCloud call"
      open={open}
      onToggle={onToggle}
      testId="activity-toggle"
    />
  );
}
