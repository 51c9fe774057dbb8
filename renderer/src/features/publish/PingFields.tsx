/**
 * Settings > Your feed > Who is told when you post: the notification service (cloud) the feed
 * names, and other services to tell (ping sinks). `reachable`: readers can reach this app now
 * (a tunnel or a public address); while not, the own service's line says so.
 */
import type { PublishSettings as Settings } from '../../../../src/app/api';
import { RadioGroup } from '../../components/RadioGroup';
import { UrlList } from '../../components/UrlList';
import { PUBLIC_CLOUD } from './settings-patch';

type Sink = Settings['pingSinks'][number];
type OtherCloud = Exclude<Settings['cloud'], 'own'>;

export function PingFields({
  draft,
  set,
  reachable,
}: {
  draft: Settings;
  set(patch: Partial<Settings>): void;
  reachable: boolean;
}) {
  const cloud = draft.cloud;
  const other: OtherCloud = cloud === 'own' ? PUBLIC_CLOUD : cloud;
  const setCloud = (patch: Partial<OtherCloud>) => set({ cloud: { ...other, ...patch } });
  return (
    <fieldset>
      <legend>Who is told when you post</legend>
      <RadioGroup
        name="publish-cloud"
        label="The notification service your feed names"
        value={cloud === 'own' ? 'own' : 'other'}
        onChange={(choice) => set({ cloud: choice === 'own' ? 'own' : other })}
        choices={[
          {
            value: 'own',
            label: "This app's own notification service",
            hint: (
              <span data-testid="publish-own-cloud-note">
                {reachable
                  ? 'Readers who follow your feed are told of each post at once.'
                  : 'Not reachable now: turn on the tunnel or give a public address (Real time above), or readers only see posts when they next check.'}
              </span>
            ),
          },
          { value: 'other', label: 'Another notification service (rssCloud)', testId: 'publish-cloud-other' },
        ]}
      />
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
      <p className="settings-note">Also tell these services (blog directories, search engines):</p>
      <UrlList
        items={draft.pingSinks}
        urlOf={(sink) => sink.url}
        withUrl={(sink, url) => ({ ...sink, url })}
        onChange={(pingSinks) => set({ pingSinks })}
        newItem={(): Sink => ({ kind: 'weblogUpdates', url: '' })}
        itemName={(i) => `Ping ${i + 1}`}
        addLabel="+ Another service to tell"
        placeholder="https://…"
        before={(sink, i, setSink) => (
          <select
            aria-label={`Ping ${i + 1} kind`}
            value={sink.kind}
            onChange={(e) => setSink({ ...sink, kind: e.target.value as Sink['kind'] })}
          >
            <option value="weblogUpdates">weblogUpdates (XML-RPC)</option>
            <option value="httpGet">HTTP GET (?name=&amp;url=)</option>
            <option value="rssPing">RSS Ping v2 (fat ping)</option>
          </select>
        )}
      />
    </fieldset>
  );
}
