/**
 * Settings, a page of its own in the river's place (issue 17: as a panel above the river it left
 * no river at 800x600): sections Reading, Real time, Other devices, Your feed, Privacy, Backup, About, a
 * section list to
 * jump to, and one Save at the bottom that saves every section (other features' forms, such as
 * Your feed, are marked data-settings-form and submitted with it). Self-contained like the
 * activity log: it reads and writes through the API; the core validates and keeps them.
 */
import { type ReactNode, useEffect, useState } from 'react';
import type { ImagePolicy, RealtimeInfo, Settings } from '../../../../src/app/api';
import { getClient } from '../../api/client';
import { Checkbox } from '../../components/Checkbox';
import { CloseIcon } from '../../components/icons';
import { MuteFilterEditor } from '../../components/MuteFilterEditor';
import { useApp } from '../../store/context';
import { BackupSection } from './BackupSection';
import { RealtimeSubscriptions } from './RealtimeSubscriptions';
import { SyncSection } from './SyncSection';
import { ThemeField } from './ThemeField';
import './settings.css';

const IMAGE_CHOICES: { value: ImagePolicy; label: string; hint: string }[] = [
  {
    value: 'blockTrackers',
    label: 'Load pictures, but not tracking pixels',
    hint: '1×1 images and known trackers are never requested (the default).',
  },
  {
    value: 'clickToLoad',
    label: 'Load pictures only when I click',
    hint: 'Feeds you allow in their settings still load.',
  },
  { value: 'load', label: 'Load every picture', hint: 'Tracking pixels included.' },
];

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

const SECTIONS = [
  { id: 'settings-reading', label: 'Reading' },
  { id: 'settings-realtime', label: 'Real time' },
  { id: 'settings-sync', label: 'Other devices' },
  { id: 'settings-feed', label: 'Your feed' },
  { id: 'settings-privacy', label: 'Privacy' },
  { id: 'settings-backup', label: 'Backup' },
  { id: 'settings-about', label: 'About' },
];

function describeRealtime(info: RealtimeInfo | null): string {
  if (!info) return 'Checking…';
  if (info.mode === 'off')
    return 'Off: nothing reaches this computer from outside, so every feed is checked on a schedule.';
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

  /** The one Save: this page's settings, and every other section's form (Your feed). */
  async function saveAll() {
    for (const form of document.querySelectorAll<HTMLFormElement>('form[data-settings-form]'))
      form.requestSubmit();
    await save();
  }

  async function save() {
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
        {!draft && status && <p className="form-error">{status.text}</p>}
        {draft && (
          <section
            id="settings-reading"
            className="settings-section"
            aria-labelledby="settings-reading-title"
          >
            <h3 id="settings-reading-title">Reading</h3>
            <label className="settings-field">
              <span className="settings-label">Check feeds every</span>
              <span>
                <input
                  type="number"
                  min={5}
                  max={1440}
                  value={draft.pollIntervalMin}
                  onChange={(e) => set({ pollIntervalMin: Number(e.target.value) })}
                  data-testid="settings-interval"
                />
                minutes
              </span>
              <span className="settings-note">
                A feed that asks to be read less often (its own schedule) is read less often.
              </span>
            </label>
            <label className="settings-field">
              <span className="settings-label">Keep items for</span>
              <span>
                <input
                  type="number"
                  min={1}
                  max={3650}
                  value={draft.retentionDays}
                  onChange={(e) => set({ retentionDays: Number(e.target.value) })}
                  data-testid="settings-retention"
                />
                days
              </span>
              <span className="settings-note">Starred items are kept forever.</span>
            </label>
            <ThemeField />
          </section>
        )}
        <section className="settings-section" aria-labelledby="settings-mute-title">
          <h3 id="settings-mute-title">Mute filters for every feed</h3>
          <p className="settings-note">
            Items that match are hidden or marked read as they arrive; a muted item says why and can be
            un-muted. A feed's own filters are in its settings (the feed's ⋯ menu).
          </p>
          <MuteFilterEditor feedId={null} />
        </section>
        {draft && (
          <section
            id="settings-realtime"
            className="settings-section"
            aria-labelledby="settings-realtime-title"
          >
            <h3 id="settings-realtime-title">Real time</h3>
            <p className="settings-note">
              Some feeds can tell Tidings the moment they change (rssCloud, WebSub) instead of waiting for the
              next check. For that, their servers must be able to reach this computer.
            </p>
            <p className="settings-status" data-testid="settings-realtime">
              {describeRealtime(info)}
            </p>
            <Checkbox
              className="settings-check"
              checked={draft.tunnelEnabled ?? false}
              onChange={(tunnelEnabled) => set({ tunnelEnabled })}
              testId="settings-tunnel-enabled"
            >
              <span>
                Reach this computer through a tunnel
                <span className="settings-note settings-hint">
                  A relay on the internet forwards those calls to this app only (never your other files or
                  programs).
                </span>
              </span>
            </Checkbox>
            <label className="settings-field">
              <span className="settings-label">Tunnel server</span>
              <input
                type="url"
                value={draft.tunnelHost ?? ''}
                disabled={!draft.tunnelEnabled}
                onChange={(e) => set({ tunnelHost: e.target.value })}
                data-testid="settings-tunnel-host"
              />
            </label>
            <label className="settings-field">
              <span className="settings-label">Or your own public address</span>
              <input
                type="url"
                placeholder="https://me.example.org"
                value={draft.publicBaseUrl ?? ''}
                onChange={(e) => set({ publicBaseUrl: e.target.value.trim() === '' ? null : e.target.value })}
                data-testid="settings-public-url"
              />
              <span className="settings-note">
                If this computer is reachable already (a port forward, a server), instead of a tunnel.
              </span>
            </label>
            {info?.cloud && (
              <p className="settings-note" data-testid="settings-own-cloud">
                Readers of your own feed are told of new posts by this app's notification service, at{' '}
                {info.cloud.domain}:{info.cloud.port}
                {info.cloud.path} ({info.cloud.protocol}).
              </p>
            )}
            {info?.hub && (
              <p className="settings-note" data-testid="settings-own-hub">
                Your hub (WebSub), for readers whose apps use WebSub: {info.hub}
              </p>
            )}
            <h4 className="settings-subhead">Feeds read in real time</h4>
            {info ? (
              <RealtimeSubscriptions subscriptions={info.subscriptions} />
            ) : (
              <p className="settings-note">Checking…</p>
            )}
          </section>
        )}
        <SyncSection />
        {/* Your feed (the writer's settings), composed by the app. */}
        <div id="settings-feed">{children}</div>
        {draft && (
          <section
            id="settings-privacy"
            className="settings-section"
            aria-labelledby="settings-privacy-title"
          >
            <h3 id="settings-privacy-title">Privacy</h3>
            <div role="radiogroup" aria-label="Pictures in items" className="settings-radios">
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
                    <span className="settings-note settings-hint">{choice.hint}</span>
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
                Allow feeds on my local network
                <span className="settings-note settings-hint">
                  Such as a home NAS at 192.168.x.x. Off, such addresses are refused. Link-local and
                  cloud-metadata addresses are always refused.
                </span>
              </span>
            </Checkbox>
          </section>
        )}
        <BackupSection />
        <section id="settings-about" className="settings-section" aria-labelledby="settings-about-title">
          <h3 id="settings-about-title">About</h3>
          <p className="settings-note">
            Tidings: a river of news that reads feeds in real time where they allow it (rssCloud, WebSub),
            writes your own short posts, and runs its own notification service. Your data stays on this
            computer.
          </p>
        </section>
        <div className="settings-actions">
          <button
            type="button"
            className="primary"
            onClick={() => void saveAll()}
            data-testid="settings-save"
          >
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
      </div>
    </section>
  );
}
