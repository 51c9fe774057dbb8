/**
 * "Move in from FreshRSS or Miniflux" (issue 32), under Read on other devices: their Google Reader
 * API's address and API login; the core brings the subscriptions with their folders and the
 * starred items, and says how many. The password is sent once and not kept.
 */
import { type FormEvent, useState } from 'react';
import { getClient } from '../../api/client';
import { TextField } from '../../components/TextField';

export function GReaderImport() {
  const [url, setUrl] = useState('');
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setResult(null);
    try {
      const r = await getClient().importFromGReader({ url, user, password });
      if (!r.ok) setResult({ ok: false, text: r.error.message });
      else {
        const { added, existing, starred, errors } = r.value;
        setPassword('');
        setResult({
          ok: true,
          text: `Imported ${added} new feed${added === 1 ? '' : 's'} (${existing} already here) and ${starred} starred item${starred === 1 ? '' : 's'}.${errors.length ? ` ${errors.join(' ')}` : ''}`,
        });
      }
    } catch (err) {
      setResult({ ok: false, text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="greader-import" onSubmit={(e) => void submit(e)} data-testid="greader-import">
      <h4 className="settings-subhead">Move in from FreshRSS or Miniflux</h4>
      <p className="settings-note">
        Brings your subscriptions with their folders, and your starred items. Use the API password from that
        reader’s settings; it is used once and not kept.
      </p>
      <TextField
        label="Its Google Reader API address"
        type="url"
        required
        placeholder="https://freshrss.example.org/api/greader.php"
        value={url}
        onValue={setUrl}
        testId="greader-import-url"
      />
      <div className="greader-import-login">
        <TextField
          label="User name"
          type="text"
          required
          autoComplete="off"
          value={user}
          onValue={setUser}
          testId="greader-import-user"
        />
        <TextField
          label="API password"
          type="password"
          required
          autoComplete="off"
          value={password}
          onValue={setPassword}
          testId="greader-import-password"
        />
      </div>
      <div>
        <button type="submit" disabled={busy} data-testid="greader-import-submit">
          {busy ? 'Importing…' : 'Import'}
        </button>
      </div>
      {result && (
        <p
          className={result.ok ? 'settings-ok' : 'form-error'}
          role="status"
          data-testid="greader-import-result"
        >
          {result.text}
        </p>
      )}
    </form>
  );
}
