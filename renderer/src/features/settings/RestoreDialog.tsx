/**
 * Restore…: the chosen file goes to the core in pieces and is checked; the dialog then says what
 * it holds, what it replaces and where the replaced data is kept, asks for the passphrase of its
 * secrets, and restores only when confirmed. Every window then reloads (the 'data.restored' event).
 */
import { type FormEvent, useEffect, useState } from 'react';
import type { RestorePreview, RestoreReport } from '../../../../src/app/api';
import { describeKinds, describeSummary } from '../../../../src/backup/describe';
import { errorMessage } from '../../api/api-error';
import { getClient } from '../../api/client';
import { Checkbox } from '../../components/Checkbox';
import { Dialog } from '../../components/Dialog';
import { formatMegabytes } from '../../lib/format';
import { CloseFoot, Warnings } from './backup-parts';
import { uploadBackup } from './backup-transfer';

type Phase = 'reading' | 'preview' | 'restoring' | 'done' | 'refused';

export function RestoreDialog({ file, onClose }: { file: File; onClose(): void }) {
  const [phase, setPhase] = useState<Phase>('reading');
  const [progress, setProgress] = useState(0);
  const [transferId, setTransferId] = useState<string | null>(null);
  const [preview, setPreview] = useState<RestorePreview | null>(null);
  const [passphrase, setPassphrase] = useState('');
  const [skipSecrets, setSkipSecrets] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<RestoreReport | null>(null);

  useEffect(() => {
    let open = true;
    let id: string | null = null;
    const client = getClient();
    (async () => {
      try {
        id = await uploadBackup(client, file, (f) => open && setProgress(f));
        if (!open) return;
        setTransferId(id);
        const checked = await client.previewRestore(id);
        if (!open) return;
        if (checked.ok) {
          setPreview(checked.value);
          setPhase('preview');
        } else {
          setError(checked.error.message);
          setPhase('refused');
        }
      } catch (e) {
        if (!open) return;
        setError(errorMessage(e));
        setPhase('refused');
      }
    })();
    return () => {
      open = false;
      // Closed before restoring: the upload is of no more use.
      if (id) void client.discardTransfer(id);
    };
  }, [file]);

  const sealed = preview?.secrets.mode === 'sealed';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!preview || !transferId || phase !== 'preview') return;
    if (sealed && !skipSecrets && passphrase === '') {
      setError("Type the passphrase the backup's secrets were sealed with, or restore without them.");
      return;
    }
    setError(null);
    setPhase('restoring');
    try {
      const done = await getClient().restoreBackup(transferId, {
        passphrase: sealed && !skipSecrets ? passphrase : null,
        skipSecrets: sealed && skipSecrets,
        replaceExisting: preview.current !== null,
      });
      if (!done.ok) {
        setError(done.error.message);
        setPhase('preview');
        return;
      }
      setReport(done.value);
      setPhase('done');
    } catch (e) {
      setError(errorMessage(e));
      setPhase('preview');
    }
  }

  const busy = phase === 'reading' || phase === 'restoring';
  return (
    <Dialog
      title="Restore a backup"
      onClose={busy || phase === 'done' ? () => {} : onClose}
      testId="restore-dialog"
    >
      {phase === 'reading' && (
        <p className="dialog-form backup-flow" role="status">
          Reading {file.name}… {Math.round(progress * 100)}%
        </p>
      )}
      {phase === 'refused' && (
        <div className="dialog-form backup-flow">
          <p className="form-error" role="alert" data-testid="restore-refused">
            {file.name}: {error}
          </p>
          <p>Nothing was changed.</p>
          <CloseFoot onClose={onClose} testId="restore-close" />
        </div>
      )}
      {phase === 'done' && report && (
        <div className="dialog-form backup-flow" role="status" data-testid="restore-done">
          <p>Restored {describeSummary(report.summary)}.</p>
          {report.replacedCopy && <p>What was here before is kept in {report.replacedCopy}.</p>}
          <Warnings warnings={report.warnings} />
          <p>Loading the restored data…</p>
        </div>
      )}
      {preview && (phase === 'preview' || phase === 'restoring') && (
        <form className="dialog-form backup-flow" onSubmit={(e) => void submit(e)}>
          <p data-testid="restore-holds">
            Made {new Date(preview.createdAt).toLocaleString()} by Tidings {preview.appVersion} (
            {formatMegabytes(preview.size) ?? 'under 0.1 MB'}), it holds {describeSummary(preview.summary)}.
          </p>
          {preview.current && (
            <p className="backup-replaces" data-testid="restore-replaces">
              Restoring replaces what Tidings holds now: {describeSummary(preview.current)}. A copy of it is
              kept in {preview.keepsCopyIn}.
            </p>
          )}
          {preview.secrets.mode === 'leftOut' && (
            <p>
              It was made without its secrets ({describeKinds(preview.secrets.kinds)}): enter them again where
              they are asked for.
            </p>
          )}
          {sealed && (
            <fieldset className="backup-secrets" disabled={phase === 'restoring'}>
              <legend>Its secrets are sealed: {describeKinds(preview.secrets.kinds)}</legend>
              <label>
                Passphrase
                <input
                  type="password"
                  autoComplete="current-password"
                  value={passphrase}
                  disabled={skipSecrets}
                  onChange={(e) => {
                    setPassphrase(e.target.value);
                    setError(null);
                  }}
                  data-autofocus
                  data-testid="restore-passphrase"
                />
              </label>
              <Checkbox
                className="settings-check"
                checked={skipSecrets}
                onChange={setSkipSecrets}
                testId="restore-skip-secrets"
              >
                <span>Restore without them (enter them again where they are asked for)</span>
              </Checkbox>
            </fieldset>
          )}
          {phase === 'restoring' && <p role="status">Restoring…</p>}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" onClick={onClose} disabled={phase === 'restoring'}>
              Cancel
            </button>
            <button
              type="submit"
              className={preview.current ? 'primary danger' : 'primary'}
              disabled={phase === 'restoring'}
              data-testid="restore-confirm"
            >
              {preview.current ? 'Replace my data' : 'Restore'}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
