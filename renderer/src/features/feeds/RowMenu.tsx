/**
 * A row's actions menu (the "⋯" button, the context-menu key, Shift+F10, right click), placed
 * under its row; the keys are the shared menu's (components/Menu.tsx). Closing it any way gives
 * focus back to the row it came from (the caller's onClose).
 */
import { Menu, type MenuAction } from '../../components/Menu';

export type { MenuAction };

export function RowMenu({
  label,
  actions,
  onClose,
}: {
  label: string;
  actions: MenuAction[];
  onClose(): void;
}) {
  return (
    <Menu label={label} actions={actions} onClose={() => onClose()} className="row-menu" testId="row-menu" />
  );
}
