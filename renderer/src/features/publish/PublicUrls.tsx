/** The feed's public addresses (hosted RSS/Atom/JSON, home page, every pinged URL), each with Copy. */
import type { PublishInfo } from '../../../../src/app/api';
import { CopyButton } from '../../components/CopyButton';

export function PublicUrls({ info }: { info: PublishInfo | null }) {
  if (!info) return <p className="settings-status">Checking…</p>;
  const rows: [string, string][] = [];
  const { rss, atom, json, home } = info.feedUrls;
  if (home) rows.push(['Home page', home]);
  if (rss) rows.push(['RSS', rss]);
  if (atom) rows.push(['Atom', atom]);
  if (json) rows.push(['JSON Feed', json]);
  for (const url of info.publicUrls) if (!rows.some(([, u]) => u === url)) rows.push(['Pinged', url]);
  return (
    <div className="public-urls" data-testid="publish-urls">
      {rows.length === 0 ? (
        <p className="settings-status">
          No public address yet: turn on a target (and the tunnel for hosting).
        </p>
      ) : (
        <ul>
          {rows.map(([label, url]) => (
            <li key={`${label}:${url}`}>
              <span className="public-url-label">{label}</span>
              <code className="public-url">{url}</code>
              <CopyButton text={url} label={`the ${label} address`} />
            </li>
          ))}
        </ul>
      )}
      {info.cloud && (
        <p className="settings-note" data-testid="publish-cloud">
          The feed's &lt;cloud&gt;: {info.cloud.protocol} at {info.cloud.domain}:{info.cloud.port}
          {info.cloud.path}
        </p>
      )}
    </div>
  );
}
