/**
 * Settings for the writer's feed, composed into the Settings panel by the app: the feed's
 * title/description/link, the limit, where it is saved (hosting, a folder, a remote cloud's
 * saveRss), which cloud its <cloud> names, extra ping sinks, the WebSub hubs, and its public URLs with Copy.
 * Loads and saves through its own API commands, as a section of the page's one Save
 * (components/settings-drafts.ts); the core validates and answers with the reason.
 */
import { useEffect, useState } from 'react';
import type { PublishInfo, PublishSettings as Settings } from '../../../../src/app/api';
import { getClient } from '../../api/client';
import { saveAllSettings, useSettingsDraft } from '../../components/settings-drafts';
import { FeedFields } from './FeedFields';
import { HubFields } from './HubFields';
import { PingFields } from './PingFields';
import { PublicUrls } from './PublicUrls';
import { settingsPatch } from './settings-patch';
import { TargetFields } from './TargetFields';
import './publish.css';

export function PublishSettings() {
  const feed = useSettingsDraft<Settings>({
    label: 'Your feed',
    load: () => getClient().getPublishSettings(),
    async save(saved, draft) {
      const result = await getClient().updatePublishSettings(settingsPatch(saved, draft));
      if (!result.ok) return { ok: false, message: result.error.message };
      void getClient()
        .publishInfo()
        .then(setInfo, () => {});
      return result;
    },
  });
  const [info, setInfo] = useState<PublishInfo | null>(null);
  // Whether readers can reach this app now (a tunnel open or a public address): the own
  // notification service's line must not promise what the tunnel being off cannot keep.
  const [reachable, setReachable] = useState(false);
  const [ownHub, setOwnHub] = useState<string | null>(null);

  useEffect(() => {
    const client = getClient();
    let live = true;
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

  const draft = feed.draft;
  if (!draft) {
    return (
      <section className="publish-settings" aria-label="Your feed">
        <h3>Your feed</h3>
        <p className={feed.status ? 'form-error' : 'settings-status'}>{feed.status?.text ?? 'Loading…'}</p>
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
      {/* Saved by the settings page's one Save (components/settings-drafts.ts); Enter saves the page too. */}
      <form
        className="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          void saveAllSettings();
        }}
      >
        <FeedFields draft={draft} set={feed.set} />
        <TargetFields draft={draft} set={feed.set} />
        <PingFields draft={draft} set={feed.set} reachable={reachable} />
        <HubFields draft={draft} set={feed.set} ownHub={ownHub} />
        <fieldset>
          <legend>Public addresses</legend>
          <PublicUrls info={info} />
        </fieldset>
        {feed.status && (
          <p className="form-error" data-testid="publish-settings-result">
            {feed.status.text}
          </p>
        )}
      </form>
    </section>
  );
}
