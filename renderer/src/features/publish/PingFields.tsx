/** Settings > Your feed > Whom it pings: the cloud its <cloud> names, and extra ping sinks. */
import type { PublishSettings as Settings } from '../../../../src/app/api';
import { PUBLIC_CLOUD } from './settings-patch';

type Sink = Settings['pingSinks'][number];
type OtherCloud = Exclude<Settings['cloud'], 'own'>;

export function PingFields({ draft, set }: { draft: Settings; set(patch: Partial<Settings>): void }) {
  const cloud = draft.cloud;
  const other: OtherCloud = cloud === 'own' ? PUBLIC_CLOUD : cloud;
  const setCloud = (patch: Partial<OtherCloud>) => set({ cloud: { ...other, ...patch } });
  const setSink = (i: number, patch: Partial<Sink>) =>
    set({ pingSinks: draft.pingSinks.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  return (
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
  );
}
