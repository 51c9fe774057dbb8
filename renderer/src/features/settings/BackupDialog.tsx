/**
 * Back up…: what the backup will hold, the passphrase its secrets are sealed with (or leaving them
 * out), then the file made by the core, read in pieces and saved by the browser.
 */
import { type FormEvent, useEffect, useState } from 'react';
import type { BackupPlan, BackupReady } from '../../../../src/app/api';
import { describeKinds, describeSummary } from '../../../../src/backup/describe';
import { errorMessage } from '../../api/api-error';
import { getClient } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { formatMegabytes } from '../../lib/format';
import { saveFile } from '../../lib/save-file';
import { CloseFoot, Warnings } from './backup-parts';
import { downloadBackup } from './backup-transfer';

type Phase = 'choose' | 'making' | 'saving' | 'done';

export function BackupDialog({ onClose }: { onClose(): void }) {
  const [plan, setPlan] = useState<BackupPlan | null>(null);
  const [seal, setSeal] = useState(true);
  const [passphrase, setPassphrase] = useState('');
  const [again, setAgain] = useState('');
  const [phase, setPhase] = useState<Phase>('choose');
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<BackupReady | null>(null);

  useEffect(() => {
    let open = true;
    getClient()
      .backupPlan()
      .then(
        (p) => open && setPlan(p),
        (e: unknown) => open && setError(errorMessage(e)),
      );
    return () => {
      open = false;
    };
  }, []);

  const hasSecrets = (plan?.secrets.length ?? 0) > 0;
  const busy = phase === 'making' || phase === 'saving';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!plan || busy) return;
    if (hasSecrets && seal) {
      if ([...passphrase].length < plan.minPassphraseLength) {
        setError(`The passphrase needs at least ${plan.minPassphraseLength} characters.`);
        return;
      }
      if (passphrase !== again) {
        setError('The two passphrases differ.');
        return;
      }
    }
    setError(null);
    setPhase('making');
    try {
      const client = getClient();
      const ready = await client.createBackup({ passphrase: hasSecrets && seal ? passphrase : null });
      if (!ready.ok) throw new Error(ready.error.message);
      setPhase('saving');
      const blob = await downloadBackup(client, ready.value, setProgress);
      saveFile(blob, ready.value.fileName);
      setMade(ready.value);
      setPhase('done');
    } catch (e) {
      setError(errorMessage(e));
      setPhase('choose');
    }
  }

  return (
    <Dialog title="Back up" onClose={busy ? () => {} : onClose} testId="backup-dialog">
      {phase === 'done' && made ? (
        <div className="dialog-form backup-flow" role="status" data-testid="backup-done">
          <p>
            Saved as <strong>{made.fileName}</strong> ({formatMegabytes(made.size)}):{' '}
            {describeSummary(made.summary)}.
          </p>
          {made.secrets.mode === 'sealed' && (
            <p>
              Its secrets are sealed with your passphrase: a restore asks for it, so keep it with the file.
            </p>
          )}
          <Warnings warnings={made.warnings} />
          <CloseFoot onClose={onClose} testId="backup-close" />
        </div>
      ) : (
        <form className="dialog-form backup-flow" onSubmit={(e) => void submit(e)}>
          <p data-testid="backup-holds">
            {plan ? `The file will hold ${describeSummary(plan.summary)}, and your settings.` : 'Looking…'}
          </p>
          {hasSecrets && (
            <fieldset className="backup-secrets" disabled={busy}>
              <legend>Secrets: {describeKinds(plan!.secrets)}</legend>
              <label className="settings-check">
                <input
                  type="radio"
                  name="secrets"
                  checked={seal}
                  onChange={() => setSeal(true)}
                  data-testid="backup-seal"
                />
                <span>Seal them with a passphrase (a restore asks for it)</span>
              </label>
              {seal && (
                <div className="backup-passphrase">
                  <label>
                    Passphrase
                    <input
                      type="password"
                      autoComplete="new-password"
                      value={passphrase}
                      onChange={(e) => setPassphrase(e.target.value)}
                      data-autofocus
                      data-testid="backup-passphrase"
                    />
                  </label>
                  <label>
                    The same again
                    <input
                      type="password"
                      autoComplete="new-password"
                      value={again}
                      onChange={(e) => setAgain(e.target.value)}
                      data-testid="backup-passphrase-again"
                    />
                  </label>
                </div>
              )}
              <label className="settings-check">
                <input
                  type="radio"
                  name="secrets"
                  checked={!seal}
                  onChange={() => setSeal(false)}
                  data-testid="backup-leave-out"
                />
                <span>Leave them out (you enter them again after a restore)</span>
              </label>
            </fieldset>
          )}
          {busy && (
            <p role="status">
              {phase === 'making' ? 'Making the backup…' : `Saving… ${Math.round(progress * 100)}%`}
            </p>
          )}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" onClick={onClose} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="primary" disabled={!plan || busy} data-testid="backup-make">
              Make backup
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
