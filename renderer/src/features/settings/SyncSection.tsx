/**
 * Settings' "Read on other devices" (issue 32): phone and desktop apps that sync with FreshRSS or
 * Miniflux read this river through the Google Reader and Fever APIs. Off until turned on here;
 * then a user name, an app password shown once (the core keeps only slow hashes of it), the
 * address of each API with a QR code for a phone, and how to replace or revoke the password.
 * Every control here is an action that acts at once and says so (Turn on, Make an app password,
 * Revoke): none is a setting that waits for the page's Save (SettingsPanel.tsx says why).
 */
import { useEffect, useState } from 'react';
import type { SyncAddress, SyncInfo } from '../../../../src/app/api';
import { getClient } from '../../api/client';
import { CopyButton } from '../../components/CopyButton';
import { SettingsSection } from '../../components/SettingsSection';
import { TextField } from '../../components/TextField';
import { useNow } from '../../components/use-now';
import { formatRelative } from '../../lib/relative-time';
import { GReaderImport } from './GReaderImport';
import './sync.css';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

const APIS: { key: 'greader' | 'fever'; name: string; apps: string }[] = [
  {
    key: 'greader',
    name: 'Google Reader API',
    apps: 'NetNewsWire (as a FreshRSS account), Reeder, Read You, Fluent Reader, FeedMe, Newsflash',
  },
  { key: 'fever', name: 'Fever API', apps: 'Reeder, Unread, Fluent Reader, FeedMe' },
];

function Address({
  name,
  apps,
  address,
  id,
}: {
  name: string;
  apps: string;
  address: SyncAddress;
  id: string;
}) {
  const shown = address.public ?? address.local[0] ?? null;
  return (
    <div className="sync-address" data-testid={`sync-${id}`}>
      {address.qr && address.public && (
        <img
          className="sync-qr"
          src={address.qr}
          alt={`QR code of ${address.public}`}
          width={148}
          height={148}
          data-testid={`sync-${id}-qr`}
        />
      )}
      <div className="sync-address-text">
        <h4 className="settings-subhead">{name}</h4>
        <p className="settings-note">For {apps}.</p>
        {shown && (
          <p className="sync-url">
            <code data-testid={`sync-${id}-address`}>{shown}</code>{' '}
            <CopyButton text={shown} label={`the ${name} address`} />
          </p>
        )}
        {address.public && address.local.length > 0 && (
          <p className="settings-note">On this computer: {address.local.join(', ')}</p>
        )}
      </div>
    </div>
  );
}

export function SyncSection() {
  const [info, setInfo] = useState<SyncInfo | null>(null);
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState<string | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const now = useNow();

  useEffect(() => {
    let open = true;
    const load = () =>
      getClient()
        .syncInfo()
        .then(
          (i) => {
            if (!open) return;
            setInfo(i);
            setUserName((name) => name || i.userName || '');
          },
          (e: unknown) => open && setStatus({ ok: false, text: message(e) }),
        );
    load();
    // The tunnel's address comes and goes on its own, and phones log in: keep it current.
    const timer = setInterval(load, 5000);
    return () => {
      open = false;
      clearInterval(timer);
    };
  }, []);

  async function act(run: () => Promise<SyncInfo | null>, done?: string) {
    setBusy(true);
    setStatus(null);
    try {
      const next = await run();
      if (next) setInfo(next);
      if (done) setStatus({ ok: true, text: done });
    } catch (e) {
      setStatus({ ok: false, text: message(e) });
      // What the core holds, not what was shown in advance (the switch).
      getClient()
        .syncInfo()
        .then(setInfo, () => {});
    } finally {
      setBusy(false);
    }
  }

  const makePassword = () =>
    act(async () => {
      const made = await getClient().newSyncPassword(userName);
      if (!made.ok) {
        setStatus({ ok: false, text: made.error.message });
        return null;
      }
      setPassword(made.value.password);
      return made.value.info;
    });

  const revoke = () =>
    act(async () => {
      setPassword(null);
      return getClient().revokeSyncPassword();
    }, 'The app password is revoked: every app using it is logged out.');

  return (
    <SettingsSection id="settings-sync" title="Read on other devices">
      <p className="settings-note">
        Reading apps on your phone or another computer that sync with FreshRSS or Miniflux can sync with
        Tidings instead: the same river, read and starred items, and folders, with nothing to host. Off until
        you turn it on; until then nothing answers.
      </p>
      {!info ? (
        <p className="settings-note">{status ? status.text : 'Checking…'}</p>
      ) : (
        <>
          <div className="sync-switch">
            <p className="settings-note" data-testid="sync-state">
              {info.enabled
                ? 'On: your reading apps can sync with Tidings. They log in with a user name and an app password of their own, never your other passwords.'
                : 'Off: nothing answers the apps.'}
            </p>
            <button
              type="button"
              className={info.enabled ? undefined : 'primary'}
              disabled={busy}
              onClick={() => {
                const enabled = !info.enabled;
                // Shown at once; the core's answer (or its refusal) follows.
                setInfo({ ...info, enabled });
                void act(() => getClient().setSyncEnabled(enabled));
              }}
              data-testid="sync-enabled"
            >
              {info.enabled ? 'Turn off' : 'Turn on reading on other devices'}
            </button>
          </div>
          {info.enabled && (
            <>
              <TextField
                label="User name"
                note="What the apps ask for as user name, login or email."
                type="text"
                autoComplete="off"
                spellCheck={false}
                value={userName}
                onValue={setUserName}
                testId="sync-user"
              />
              <div className="sync-actions">
                <button
                  type="button"
                  className="primary"
                  disabled={busy || userName.trim() === ''}
                  onClick={() => void makePassword()}
                  data-testid="sync-make-password"
                >
                  {info.hasPassword ? 'Replace the app password' : 'Make an app password'}
                </button>
                {info.hasPassword && (
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => void revoke()}
                    data-testid="sync-revoke"
                  >
                    Revoke it
                  </button>
                )}
              </div>
              {password ? (
                <div className="sync-password" role="status" data-testid="sync-password-box">
                  <span className="settings-label">App password for {info.userName}</span>
                  <p className="sync-url">
                    <code data-testid="sync-password">{password}</code>{' '}
                    <CopyButton text={password} label="the app password" />
                  </p>
                  <span className="settings-note">
                    Shown only now: Tidings keeps just a scrambled form of it. Type it into your app with the
                    address below. A new one logs out every app that uses this one.
                  </span>
                </div>
              ) : (
                info.hasPassword && (
                  <p className="settings-note" data-testid="sync-password-state">
                    An app password was made{' '}
                    {info.passwordSetAt ? formatRelative(info.passwordSetAt, now) : ''} for {info.userName}
                    {info.logins > 0
                      ? `; ${info.logins} app login${info.logins === 1 ? '' : 's'}${info.lastSyncAt ? `, last sync ${formatRelative(info.lastSyncAt, now)}` : ''}.`
                      : '.'}{' '}
                    It is not shown again: replace it if it is lost.
                  </p>
                )
              )}
              {!info.greader.public && (
                <p className="settings-note" data-testid="sync-no-public">
                  A phone reaches this computer through the tunnel or your own public address (Real time,
                  above): turn one on for an address it can use. Apps on this computer can use the address
                  below.
                </p>
              )}
              <div className="sync-addresses">
                {APIS.map((api) => (
                  <Address
                    key={api.key}
                    id={api.key}
                    name={api.name}
                    apps={api.apps}
                    address={info[api.key]}
                  />
                ))}
              </div>
              <p className="settings-note">
                Fever apps ask for the same user name and app password. Through the internet the apps reach
                these two addresses only: never this window, your settings or your own feed's controls.
              </p>
            </>
          )}
        </>
      )}
      {status && (
        <p className={status.ok ? 'settings-ok' : 'form-error'} role="status" data-testid="sync-result">
          {status.text}
        </p>
      )}
      <GReaderImport />
    </SettingsSection>
  );
}
