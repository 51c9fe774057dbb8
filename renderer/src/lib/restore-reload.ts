/**
 * After a backup is restored (from this window or another): the page loads again, so every store
 * starts from the restored data, and says once, after loading, what happened.
 */
import type { RestoreReport } from '../../../src/app/api';
import { describeSummary } from '../../../src/backup/describe';

const KEY = 'tidings.restored';
/** Long enough to read the restore dialog's last words before the page goes. */
const RELOAD_DELAY_MS = 1500;

export function reloadAfterRestore(report: RestoreReport): void {
  const kept = report.replacedCopy ? ` What was here before is kept in ${report.replacedCopy}.` : '';
  try {
    sessionStorage.setItem(KEY, `Restored from a backup: ${describeSummary(report.summary)}.${kept}`);
  } catch {
    // No storage: the page still reloads, without the sentence.
  }
  setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
}

/** The sentence a restore left for the page it reloaded (once), or null. */
export function takeRestoredNotice(): string | null {
  try {
    const message = sessionStorage.getItem(KEY);
    if (message !== null) sessionStorage.removeItem(KEY);
    return message;
  } catch {
    return null;
  }
}
