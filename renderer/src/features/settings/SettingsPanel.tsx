/**
 * Settings, a page of its own in the river's place (issue 17: as a panel above the river it left
 * no river at 800x600): sections you can jump to, and one Save at the bottom that saves them all.
 *
 * One way to save (issue 35): every field, whichever feature it comes from, waits for that Save,
 * and leaving the page with edits not saved asks first (the app's leave question,
 * components/SettingsLeave.tsx; the browser's own before a reload or a close). A section takes part
 * through components/settings-drafts.ts: useSettingsDraft for one object of settings loaded from
 * the core, useSettingsSection for any other draft. A button that acts at once and says so (Back
 * up now) is an action, not a field: it needs neither.
 *
 * Adding a section: a <SettingsSection id="settings-..." title=...> (components/SettingsSection.tsx)
 * inside .settings-columns (they flow into two columns on a wide window) or, when it is wide
 * itself (a form in two columns, like Your feed), after them; passed in as `children` by the app
 * when it is another feature's (features never import each other); and an entry in SECTIONS for
 * the list to jump to.
 */
import { type ReactNode, useEffect } from 'react';
import { CloseIcon } from '../../components/icons';
import { SettingsSection } from '../../components/SettingsSection';
import { forgetSaveResult, saveAllSettings, useSettingsSaveState } from '../../components/settings-drafts';
import { BackupSection } from './BackupSection';
import { MuteFiltersSection } from './MuteFiltersSection';
import { PrivacySection } from './PrivacySection';
import { ReadingSection } from './ReadingSection';
import { RealtimeSection } from './RealtimeSection';
import { SyncSection } from './SyncSection';
import './settings.css';

const SECTIONS = [
  { id: 'settings-reading', label: 'Reading' },
  { id: 'settings-mute', label: 'Mute filters' },
  { id: 'settings-realtime', label: 'Real time' },
  { id: 'settings-privacy', label: 'Privacy' },
  { id: 'settings-sync', label: 'Other devices' },
  { id: 'settings-feed', label: 'Your feed' },
  { id: 'settings-backup', label: 'Backup' },
  { id: 'settings-about', label: 'About' },
];

/**
 * `onClose`: the app's way out (it asks first when edits are not saved). `children`: other
 * features' sections (the writer's feed), composed by the app.
 */
export function SettingsPanel({ onClose, children }: { onClose(): void; children?: ReactNode }) {
  const { saving, result, unsaved } = useSettingsSaveState();
  useEffect(() => () => forgetSaveResult(), []);

  return (
    // id="river": the skip link's target is whatever shows in the river's place.
    <section
      id="river"
      tabIndex={-1}
      className="settings"
      data-testid="settings-panel"
      aria-labelledby="settings-title"
    >
      <header className="settings-head">
        <h2 id="settings-title">Settings</h2>
        <nav className="settings-nav" aria-label="Settings sections">
          {SECTIONS.map((section) => (
            <a key={section.id} href={`#${section.id}`}>
              {section.label}
            </a>
          ))}
        </nav>
        <button type="button" className="icon-button" aria-label="Close settings" onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      {/* Not a form: Your feed and the mute filters bring forms of their own (forms do not nest). */}
      <div className="settings-page">
        <div className="settings-columns">
          <ReadingSection />
          <MuteFiltersSection />
          <RealtimeSection />
          <PrivacySection />
        </div>
        {/* Wide: an address and its QR code side by side for each API. */}
        <SyncSection />
        {/* Your feed (the writer's settings), composed by the app. */}
        <div id="settings-feed" className="settings-wide">
          {children}
        </div>
        <BackupSection />
        <SettingsSection id="settings-about" title="About">
          <p className="settings-note">
            Tidings: a river of news that reads feeds in real time where they allow it (rssCloud, WebSub),
            writes your own short posts, and runs its own notification service. Your data stays on this
            computer.
          </p>
        </SettingsSection>
        <div className="settings-actions">
          <button
            type="button"
            className="primary"
            disabled={saving}
            onClick={() => void saveAllSettings()}
            data-testid="settings-save"
          >
            {saving ? 'Saving…' : 'Save'}
          </button>
          {/* Always there, so what a Save came to is announced when it comes. */}
          <span
            className={result?.ok === false ? 'form-error' : 'settings-ok'}
            role="status"
            data-testid="settings-result"
          >
            {result?.text ?? ''}
          </span>
          {!result && unsaved.length > 0 && (
            <span className="settings-unsaved" data-testid="settings-unsaved">
              Not saved yet: {unsaved.join(', ')}
            </span>
          )}
        </div>
      </div>
    </section>
  );
}
