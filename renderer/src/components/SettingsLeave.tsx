/**
 * Leaving Settings with edits not saved asks first (issue 35): "Save and leave", "Leave without
 * saving", or keep editing. The app asks through requestLeave before anything takes the page
 * away (Close, the toolbar's Settings, picking a feed or My posts); a reload or closing the
 * window asks through the browser's own question (beforeunload; in the desktop app main turns
 * it into a dialog of its own, main/window.ts).
 */
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { ConfirmDialog } from './ConfirmDialog';
import {
  discardAllSettings,
  saveAllSettings,
  unsavedSettings,
  useAnySettingsUnsaved,
} from './settings-drafts';

/** "Reading", "Reading and Your feed", "Reading, Privacy and Your feed". */
function listed(labels: string[]): string {
  return labels.length <= 1
    ? (labels[0] ?? '')
    : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

export function useSettingsLeave(): { requestLeave(then: () => void): void; question: ReactNode } {
  const anyUnsaved = useAnySettingsUnsaved();
  const [pending, setPending] = useState<{ then: () => void; labels: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!anyUnsaved) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older engines ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [anyUnsaved]);

  const requestLeave = useCallback((then: () => void) => {
    const labels = unsavedSettings();
    if (labels.length === 0) then();
    else {
      setError(null);
      setPending({ then, labels });
    }
  }, []);

  const question = pending && (
    <ConfirmDialog
      title="Save your changes to Settings?"
      answers={[
        { label: 'Keep editing', run: () => setPending(null), testId: 'leave-stay' },
        {
          label: 'Leave without saving',
          run: () => {
            discardAllSettings();
            setPending(null);
            pending.then();
          },
          testId: 'leave-discard',
        },
        {
          label: 'Save and leave',
          primary: true,
          testId: 'leave-save',
          run: async () => {
            setBusy(true);
            const errors = await saveAllSettings();
            setBusy(false);
            if (errors.length > 0) {
              setError(`Not saved: ${errors.join(' ')}`);
              return;
            }
            setPending(null);
            pending.then();
          },
        },
      ]}
      busy={busy}
      error={error}
      onCancel={() => setPending(null)}
      testId="settings-leave"
    >
      <p>Your changes to {listed(pending.labels)} are not saved yet.</p>
    </ConfirmDialog>
  );

  return { requestLeave, question };
}
