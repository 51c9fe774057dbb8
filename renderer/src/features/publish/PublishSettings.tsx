/**
 * Settings for the writer's feed, composed into the Settings panel by the app: the feed's
 * title/description/link, the limit, where it is saved (hosting, a folder, a remote cloud's
 * saveRss), which cloud its <cloud> names, extra ping sinks, and its public URLs with Copy.
 * Loads and saves through its own API commands; the core validates and answers with the reason.
 */
import { type FormEvent, useEffect, useState } from 'react';
import type { PublishInfo, PublishSettings as Settings } from '../../../../src/app/api';
import { errorMessage } from '../../api/api-error';
import { getClient } from '../../api/client';
import { PublicUrls } from './PublicUrls';
import { PUBLIC_CLOUD, settingsPatch } from './settings-patch';
import './publish.css';

type Sink = Settings['pingSinks'][number];
type OtherCloud = Exclude<Settings['cloud'], 'own'>;

export function PublishSettings() {
  const [saved, setSaved] = useState<Settings | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [info, setInfo] = useState<PublishInfo | null>(null);
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
    const poll = () =>
      client.publishInfo().then(
        (i) => live && setInfo(i),
        () => {},
      );
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

  const cloud = draft.cloud;
  const other: OtherCloud = cloud === 'own' ? PUBLIC_CLOUD : cloud;
  const setCloud = (patch: Partial<OtherCloud>) => set({ cloud: { ...other, ...patch } });
  const setSink = (i: number, patch: Partial<Sink>) =>
    set({ pingSinks: draft.pingSinks.map((s, j) => (j === i ? { ...s, ...patch } : s)) });

  return (
    <section
      className="publish-settings"
      aria-labelledby="publish-settings-title"
      data-testid="publish-settings"
    >
      <h3 id="publish-settings-title">Your feed (writing)</h3>
      <form className="settings-form" onSubmit={save}>
        <fieldset>
          <legend>The feed</legend>
          <label>
            Title
            <input
              type="text"
              value={draft.title}
              onChange={(e) => set({ title: e.target.value })}
              data-testid="publish-title"
            />
          </label>
          <label>
            Description
            <input
              type="text"
              value={draft.description}
              onChange={(e) => set({ description: e.target.value })}
            />
          </label>
          <label>
            Link (your site; the hosted home page when empty)
            <input
              type="url"
              value={draft.link ?? ''}
              onChange={(e) => set({ link: e.target.value.trim() === '' ? null : e.target.value })}
            />
          </label>
          <label>
            Language
            <input
              type="text"
              value={draft.language}
              size={8}
              onChange={(e) => set({ language: e.target.value })}
            />
          </label>
          <label>
            At most
            <input
              type="number"
              min={1}
              max={100000}
              value={draft.charLimit}
              onChange={(e) => set({ charLimit: Number(e.target.value) })}
              data-testid="publish-char-limit"
            />
            characters per post
          </label>
          <label>
            The feed holds the newest
            <input
              type="number"
              min={1}
              max={1000}
              value={draft.feedSize}
              onChange={(e) => set({ feedSize: Number(e.target.value) })}
            />
            posts (all are kept here)
          </label>
          <label className="settings-check">
            <input
              type="checkbox"
              checked={draft.shareBlogroll}
              onChange={(e) => set({ shareBlogroll: e.target.checked })}
            />
            Publish my subscriptions as an OPML blogroll
          </label>
        </fieldset>

        <fieldset>
          <legend>Where it is saved</legend>
          <label className="settings-check">
            <input
              type="checkbox"
              checked={draft.hosting.enabled}
              onChange={(e) => set({ hosting: { ...draft.hosting, enabled: e.target.checked } })}
              data-testid="publish-hosting"
            />
            Host it here (served through the tunnel or your public address)
          </label>
          <label>
            Who may read it
            <select
              value={draft.hosting.private?.scheme ?? 'public'}
              disabled={!draft.hosting.enabled}
              onChange={(e) => {
                const v = e.target.value;
                set({
                  hosting: {
                    ...draft.hosting,
                    private:
                      v === 'public'
                        ? null
                        : {
                            username: '',
                            password: '',
                            ...draft.hosting.private,
                            scheme: v as 'basic' | 'wsse',
                          },
                  },
                });
              }}
            >
              <option value="public">Everyone</option>
              <option value="basic">With a login (HTTP Basic)</option>
              <option value="wsse">With a login (WSSE)</option>
            </select>
          </label>
          {draft.hosting.private && (
            <div className="settings-pair">
              <input
                type="text"
                aria-label="Readers' user name"
                placeholder="user name"
                value={draft.hosting.private.username}
                onChange={(e) =>
                  set({
                    hosting: {
                      ...draft.hosting,
                      private: { ...draft.hosting.private!, username: e.target.value },
                    },
                  })
                }
              />
              <input
                type="password"
                aria-label="Readers' password"
                placeholder="password"
                value={draft.hosting.private.password}
                onChange={(e) =>
                  set({
                    hosting: {
                      ...draft.hosting,
                      private: { ...draft.hosting.private!, password: e.target.value },
                    },
                  })
                }
              />
            </div>
          )}
          <label className="settings-check">
            <input
              type="checkbox"
              checked={draft.folder?.enabled ?? false}
              onChange={(e) =>
                set({ folder: { path: '', publicUrl: '', ...draft.folder, enabled: e.target.checked } })
              }
              data-testid="publish-folder"
            />
            Write it to a folder (a static site, a synced folder)
          </label>
          {draft.folder?.enabled && (
            <div className="settings-pair">
              <input
                type="text"
                aria-label="Folder path"
                placeholder="/path/to/site"
                value={draft.folder.path}
                onChange={(e) => set({ folder: { ...draft.folder!, path: e.target.value } })}
              />
              <input
                type="url"
                aria-label="The folder's public URL"
                placeholder="https://example.org/feed/"
                value={draft.folder.publicUrl}
                onChange={(e) => set({ folder: { ...draft.folder!, publicUrl: e.target.value } })}
              />
            </div>
          )}
          <label className="settings-check">
            <input
              type="checkbox"
              checked={draft.saveRss?.enabled ?? false}
              onChange={(e) =>
                set({
                  saveRss: {
                    cloudUrl: '',
                    username: '',
                    password: '',
                    ...draft.saveRss,
                    enabled: e.target.checked,
                  },
                })
              }
              data-testid="publish-saverss"
            />
            Save it on a remote cloud (rssCloud.saveRss, e.g. your own `tidings cloud`)
          </label>
          {draft.saveRss?.enabled && (
            <div className="settings-pair">
              <input
                type="url"
                aria-label="The cloud's address"
                placeholder="https://cloud.example.org/RPC2"
                value={draft.saveRss.cloudUrl}
                onChange={(e) => set({ saveRss: { ...draft.saveRss!, cloudUrl: e.target.value } })}
                data-testid="publish-saverss-url"
              />
              <input
                type="text"
                aria-label="User name on the cloud"
                placeholder="user name"
                value={draft.saveRss.username}
                onChange={(e) => set({ saveRss: { ...draft.saveRss!, username: e.target.value } })}
              />
              <input
                type="password"
                aria-label="Password on the cloud"
                placeholder="password"
                value={draft.saveRss.password}
                onChange={(e) => set({ saveRss: { ...draft.saveRss!, password: e.target.value } })}
              />
            </div>
          )}
        </fieldset>

        <fieldset>
          <legend>Whom it pings</legend>
          <label className="settings-check">
            <input
              type="radio"
              name="publish-cloud"
              checked={cloud === 'own'}
              onChange={() => set({ cloud: 'own' })}
            />
            This app's own cloud (readers are notified through your tunnel)
          </label>
          <label className="settings-check">
            <input
              type="radio"
              name="publish-cloud"
              checked={cloud !== 'own'}
              onChange={() => set({ cloud: other })}
              data-testid="publish-cloud-other"
            />
            Another cloud
          </label>
          {cloud !== 'own' && (
            <div className="settings-pair">
              <input
                type="text"
                aria-label="Cloud domain"
                value={cloud.domain}
                onChange={(e) => setCloud({ domain: e.target.value })}
              />
              <input
                type="number"
                aria-label="Cloud port"
                min={1}
                max={65535}
                value={cloud.port}
                onChange={(e) => setCloud({ port: Number(e.target.value) })}
              />
              <input
                type="text"
                aria-label="Cloud path"
                value={cloud.path}
                onChange={(e) => setCloud({ path: e.target.value })}
              />
              <select
                aria-label="Cloud protocol"
                value={cloud.protocol}
                onChange={(e) => setCloud({ protocol: e.target.value as OtherCloud['protocol'] })}
              >
                <option value="http-post">http-post</option>
                <option value="https-post">https-post</option>
                <option value="xml-rpc">xml-rpc</option>
              </select>
              <button type="button" className="link-button" onClick={() => set({ cloud: PUBLIC_CLOUD })}>
                Use rpc.rsscloud.io
              </button>
            </div>
          )}
          <p className="settings-note">Also ping:</p>
          {draft.pingSinks.map((sink, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the index is the row.
            <div className="settings-pair" key={i}>
              <select
                aria-label={`Ping ${i + 1} kind`}
                value={sink.kind}
                onChange={(e) => setSink(i, { kind: e.target.value as Sink['kind'] })}
              >
                <option value="weblogUpdates">weblogUpdates (XML-RPC)</option>
                <option value="httpGet">HTTP GET (?name=&amp;url=)</option>
                <option value="rssPing">RSS Ping v2 (fat ping)</option>
              </select>
              <input
                type="url"
                aria-label={`Ping ${i + 1} address`}
                value={sink.url}
                placeholder="https://…"
                onChange={(e) => setSink(i, { url: e.target.value })}
              />
              <button
                type="button"
                className="link-button danger"
                onClick={() => set({ pingSinks: draft.pingSinks.filter((_, j) => j !== i) })}
              >
                Remove
              </button>
            </div>
          ))}
          <button
            type="button"
            className="link-button"
            onClick={() => set({ pingSinks: [...draft.pingSinks, { kind: 'weblogUpdates', url: '' }] })}
          >
            + Ping sink
          </button>
        </fieldset>

        <fieldset>
          <legend>Public addresses</legend>
          <PublicUrls info={info} />
        </fieldset>

        <div className="settings-actions">
          <button type="submit" className="primary" data-testid="publish-settings-save">
            Save feed settings
          </button>
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
