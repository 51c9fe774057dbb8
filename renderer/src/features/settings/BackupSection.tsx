/**
 * Settings' Backup section: "Back up…" makes one file of everything and saves it; "Restore…" takes
 * such a file and, after showing what it holds and what it replaces, puts it in place. The work
 * is the core's (src/backup via the API); these are its two doors and their dialogs.
 */

import { type ChangeEvent, useRef, useState } from 'react';
import { BACKUP_FILE_EXTENSION } from '../../../../src/app/api';
import { DownloadIcon, UploadIcon } from '../../components/icons';
import { SettingsSection } from '../../components/SettingsSection';
import { BackupDialog } from './BackupDialog';
import { RestoreDialog } from './RestoreDialog';

export function BackupSection() {
  const [backingUp, setBackingUp] = useState(false);
  const [restoring, setRestoring] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (file) setRestoring(file);
  }

  return (
    <SettingsSection id="settings-backup" title="Backup">
      <p className="settings-note">
        One file with everything you built here: subscriptions and folders with their settings, what you read
        and starred, saved searches, mute filters, settings, and your posts with their feed. Keep it somewhere
        safe, or restore it on another computer.
      </p>
      <div className="backup-buttons">
        <button type="button" onClick={() => setBackingUp(true)} data-testid="backup-open">
          <DownloadIcon /> Back up…
        </button>
        <button type="button" onClick={() => fileInput.current?.click()} data-testid="restore-open">
          <UploadIcon /> Restore…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept={BACKUP_FILE_EXTENSION}
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Backup file to restore"
          onChange={onFile}
          data-testid="restore-input"
        />
      </div>
      {backingUp && <BackupDialog onClose={() => setBackingUp(false)} />}
      {restoring && <RestoreDialog file={restoring} onClose={() => setRestoring(null)} />}
    </SettingsSection>
  );
}
