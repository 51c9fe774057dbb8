/**
 * Settings for the writer's feed, composed into the Settings panel by the app: the feed's
 * title/description/link, the limit, where it is saved (hosting, a folder, a remote cloud's
 * saveRss), which cloud its <cloud> names, extra ping sinks, the WebSub hubs, and its public URLs with Copy.
 * Loads and saves through its own API commands; the core validates and answers with the reason.
 */
import { type FormEvent, useEffect, useState } from 'react';
import type { PublishInfo, PublishSettings as Settings } from '../../../../src/app/api';
import { errorMessage } from '../../api/api-error';
import { getClient } from '../../api/client';
import { FeedFields } from './FeedFields';
import { HubFields } from './HubFields';
import { PingFields } from './PingFields';
import { PublicUrls } from './PublicUrls';
import { settingsPatch } from './settings-patch';
import { TargetFields } from './TargetFields';
import './publish.css';

export function PublishSettings() {
  const [saved, setSaved] = useState<Settings | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [info, setInfo] = useState<PublishInfo | null>(null);
  // Whether readers can reach this app now (a tunnel open or a public address): the own
  // notification service's line must not promise what the tunnel being off cannot keep.
  const [reachable, setReachable] = useState(false);
  const [ownHub, setOwnHub] = useState<string | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    const client = getClient();
    let live = true;
    client.getPublishSettings().then(
      (s) => {
        if (!live) return;
        setSaved(s);
        setDraft(s);
      },
      (e: unknown) => live && setStatus({ ok: false, text: errorMessage(e) }),
    );
    // The hosted URLs follow the tunnel, which comes and goes: keep them current while open.
    const poll = () => {
      client.publishInfo().then(
        (i) => live && setInfo(i),
        () => {},
      );
      client.realtimeInfo().then(
        (r) => {
          if (!live) return;
          setReachable(r.publicUrl !== null);
          setOwnHub(r.hub);
        },
        () => {},
      );
    };
    poll();
    const timer = setInterval(poll, 3000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);

  const set = (patch: Partial<Settings>) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setStatus(null);
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!draft || !saved) return;
    try {
      const result = await getClient().updatePublishSettings(settingsPatch(saved, draft));
      if (!result.ok) {
        setStatus({ ok: false, text: result.error.message });
        return;
      }
      setSaved(result.value);
      setDraft(result.value);
      setStatus({ ok: true, text: 'Saved.' });
      setInfo(await getClient().publishInfo());
    } catch (e) {
      setStatus({ ok: false, text: errorMessage(e) });
    }
  }

  if (!draft) {
    return (
      <section className="publish-settings" aria-label="Your feed">
        <h3>Your feed</h3>
        <p className={status ? 'form-error' : 'settings-status'}>{status?.text ?? 'Loading…'}</p>
      </section>
    );
  }

  return (
    <section
      className="publish-settings"
      aria-labelledby="publish-settings-title"
      data-testid="publish-settings"
    >
      <h3 id="publish-settings-title">Your feed</h3>
      <p className="settings-note">The feed your posts are published in, and who is told when you post.</p>
      {/* Saved by the settings page's one Save (it submits every data-settings-form). */}
      <form className="settings-form" onSubmit={save} data-settings-form>
        <FeedFields draft={draft} set={set} />
        <TargetFields draft={draft} set={set} />
        <PingFields draft={draft} set={set} reachable={reachable} />
        <HubFields draft={draft} set={set} ownHub={ownHub} />
        <fieldset>
          <legend>Public addresses</legend>
          <PublicUrls info={info} />
        </fieldset>

        <div className="publish-settings-status">
          {status && (
            <span
              className={status.ok ? 'settings-ok' : 'form-error'}
              role="status"
              data-testid="publish-settings-result"
            >
              {status.text}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}
