/**
 * Settings: how often feeds are polled, how long items are kept, and how clouds reach this
 * install for real-time reading (a tunnel, or a public address of your own). Self-contained like
 * the activity log: it reads and writes through the API; the core validates and keeps them.
 */
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import type { ImagePolicy, RealtimeInfo, Settings } from '../../../../src/app/api';
import { getClient } from '../../api/client';
import { Checkbox } from '../../components/Checkbox';
import { CloseIcon } from '../../components/icons';
import { MuteFilterEditor } from '../../components/MuteFilterEditor';
import { useApp } from '../../store/context';
import './settings.css';

const IMAGE_CHOICES: { value: ImagePolicy; label: string; hint: string }[] = [
  {
    value: 'blockTrackers',
    label: 'Load images, but not tracking pixels',
    hint: '1×1 images and known trackers are never requested (the default).',
  },
  {
    value: 'clickToLoad',
    label: 'Load images only when I click',
    hint: 'Feeds you allow in their settings still load.',
  },
  { value: 'load', label: 'Load every image', hint: 'Tracking pixels included.' },
];

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function describeRealtime(info: RealtimeInfo | null): string {
  if (!info) return 'Checking…';
  if (info.mode === 'off') return 'Off: feeds with a <cloud> are polled like the others.';
  const where = info.publicUrl ?? 'no public address yet';
  if (info.mode === 'public') return `Clouds call ${where} (your public address).`;
  const t = info.tunnel;
  if (t?.status === 'open') return `Tunnel open: clouds call ${where}.`;
  if (t?.lastError) return `Tunnel ${t.status}: ${t.lastError}`;
  return `Tunnel ${t?.status ?? 'starting'}…`;
}

/**
 * `children`: other features' sections (the writer's feed, reading options), composed by the app so
 * features never import each other; each section loads and saves through its own API commands.
 */
export function SettingsPanel({ onClose, children }: { onClose(): void; children?: ReactNode }) {
  const [saved, setSaved] = useState<Settings | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [info, setInfo] = useState<RealtimeInfo | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const setImagePolicy = useApp((s) => s.setImagePolicy);

  useEffect(() => {
    const client = getClient();
    let open = true;
    client.getSettings().then(
      (s) => {
        if (!open) return;
        setSaved(s);
        setDraft(s);
      },
      (e: unknown) => open && setStatus({ ok: false, text: message(e) }),
    );
    // The tunnel comes and goes on its own: keep its line current while the panel is open.
    const poll = () =>
      client.realtimeInfo().then(
        (i) => open && setInfo(i),
        () => {},
      );
    poll();
    const timer = setInterval(poll, 2000);
    return () => {
      open = false;
      clearInterval(timer);
    };
  }, []);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!draft || !saved) return;
    const patch: Partial<Settings> = {};
    for (const key of Object.keys(draft) as (keyof Settings)[]) {
      if (draft[key] !== saved[key]) Object.assign(patch, { [key]: draft[key] });
    }
    try {
      const next = await getClient().updateSettings(patch);
      setSaved(next);
      setDraft(next);
      if (next.images) setImagePolicy(next.images);
      setStatus({ ok: true, text: 'Saved.' });
      setInfo(await getClient().realtimeInfo());
    } catch (e) {
      setStatus({ ok: false, text: message(e) });
    }
  }

  const set = (patch: Partial<Settings>) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setStatus(null);
  };

  return (
    <section className="settings" data-testid="settings-panel" aria-label="Settings">
      <header className="settings-head">
        <h2>Settings</h2>
        <button type="button" className="icon-button" aria-label="Close settings" onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      {draft && (
        <form className="settings-form" onSubmit={save}>
          <fieldset>
            <legend>Reading</legend>
            <label>
              Poll feeds every
              <input
                type="number"
                min={5}
                max={1440}
                value={draft.pollIntervalMin}
                onChange={(e) => set({ pollIntervalMin: Number(e.target.value) })}
                data-testid="settings-interval"
              />
              minutes (a feed's own ttl or skip hours may make it less often)
            </label>
            <label>
              Keep items for
              <input
                type="number"
                min={1}
                max={3650}
                value={draft.retentionDays}
                onChange={(e) => set({ retentionDays: Number(e.target.value) })}
                data-testid="settings-retention"
              />
              days (starred items are kept forever)
            </label>
          </fieldset>
          <fieldset>
            <legend>Real time (rssCloud)</legend>
            <p className="settings-status" data-testid="settings-realtime">
              {describeRealtime(info)}
            </p>
            <Checkbox
              className="settings-check"
              checked={draft.tunnelEnabled ?? false}
              onChange={(tunnelEnabled) => set({ tunnelEnabled })}
              testId="settings-tunnel-enabled"
            >
              Reach this computer through a tunnel
            </Checkbox>
            <label>
              Tunnel server
              <input
                type="url"
                value={draft.tunnelHost ?? ''}
                disabled={!draft.tunnelEnabled}
                onChange={(e) => set({ tunnelHost: e.target.value })}
                data-testid="settings-tunnel-host"
              />
            </label>
            <label>
              Or your own public address (a port forward or a server), instead of a tunnel
              <input
                type="url"
                placeholder="https://me.example.org"
                value={draft.publicBaseUrl ?? ''}
                onChange={(e) => set({ publicBaseUrl: e.target.value.trim() === '' ? null : e.target.value })}
                data-testid="settings-public-url"
              />
            </label>
            {info?.cloud && (
              <p className="settings-note" data-testid="settings-own-cloud">
                Your own cloud, for feeds you publish: {info.cloud.protocol} at {info.cloud.domain}:
                {info.cloud.port}
                {info.cloud.path}
              </p>
            )}
          </fieldset>
          <fieldset>
            <legend>Privacy and safety</legend>
            <div role="radiogroup" aria-label="Remote images in items" className="settings-radios">
              {IMAGE_CHOICES.map((choice) => (
                <label key={choice.value} className="settings-check">
                  <input
                    type="radio"
                    name="images"
                    value={choice.value}
                    checked={(draft.images ?? 'blockTrackers') === choice.value}
                    onChange={() => set({ images: choice.value })}
                    data-testid={`settings-images-${choice.value}`}
                  />
                  <span>
                    {choice.label}
                    <span className="settings-note"> {choice.hint}</span>
                  </span>
                </label>
              ))}
            </div>
            <Checkbox
              className="settings-check"
              checked={draft.allowLocalNetworkFeeds ?? false}
              onChange={(allowLocalNetworkFeeds) => set({ allowLocalNetworkFeeds })}
              testId="settings-local-network"
            >
              <span>
                Allow local network feeds
                <span className="settings-note">
                  {' '}
                  (a home NAS at 192.168.x.x). Off, such addresses are refused. Link-local and cloud-metadata
                  addresses are always refused.
                </span>
              </span>
            </Checkbox>
          </fieldset>
          <div className="settings-actions">
            <button type="submit" className="primary" data-testid="settings-save">
              Save
            </button>
            {status && (
              <span
                className={status.ok ? 'settings-ok' : 'form-error'}
                role="status"
                data-testid="settings-result"
              >
                {status.text}
              </span>
            )}
          </div>
        </form>
      )}
      {!draft && status && <p className="form-error">{status.text}</p>}
      <section className="settings-section" aria-labelledby="settings-mute-title">
        <h3 id="settings-mute-title">Mute filters for every feed</h3>
        <p className="settings-note">
          Items that match are hidden or marked read as they arrive; a muted item says why and can be
          un-muted. A feed's own filters are in its settings (the feed's ⋯ menu).
        </p>
        <MuteFilterEditor feedId={null} />
      </section>
      {children}
    </section>
  );
}

/** The toolbar button that opens and closes the panel. */
