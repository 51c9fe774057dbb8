/**
 * The activity log: every fetch of every feed (status, bytes, new items, time taken) and every
 * rssCloud call in (notifications, challenges) and out (pleaseNotify, tunnel), newest first, live
 * as the core records them, filterable by feed and by kind. Self-contained: it asks the API for
 * the recent entries and listens to the 'fetch' and 'activity' events. On a narrow window
 * (<= 800 px) the table stacks into rows of text (activity.css).
 */
import { useEffect, useId, useMemo, useState } from 'react';
import type { ActivityEntry, FetchLogEntry } from '../../../../src/app/api';
import { getClient } from '../../api/client';
import { CloseIcon } from '../../components/icons';
import { useApp } from '../../store/context';
import './activity.css';

const SHOWN = 200;

/** One awaited answer fewer. */
const oneLess = (n: number) => Math.max(0, n - 1);

type Kind = 'all' | 'fetch' | 'cloud';

function merge<T extends { id: number }>(current: T[], more: T[]): T[] {
  const byId = new Map<number, T>();
  for (const e of [...current, ...more]) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, SHOWN);
}

const time = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour12: false });

function size(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** What a fetch came to, in words. */
export function fetchResult(e: FetchLogEntry): string {
  switch (e.outcome) {
    case 'ok':
      return e.newItems === 0
        ? 'read, nothing new'
        : e.newItems === 1
          ? '1 new item'
          : `${e.newItems} new items`;
    case 'notModified':
      return 'not modified';
    case 'unchanged':
      return 'unchanged';
    case 'redirect':
      return 'moved: follows the new address';
    default:
      return e.message ?? 'failed';
  }
}

type Row =
  | { kind: 'fetch'; at: string; key: string; entry: FetchLogEntry }
  | { kind: 'cloud'; at: string; key: string; entry: ActivityEntry };

export function ActivityLog({ onClose }: { onClose(): void }) {
  const [calls, setCalls] = useState<ActivityEntry[]>([]);
  const [fetches, setFetches] = useState<FetchLogEntry[]>([]);
  const [error, setError] = useState<string | null>(null);
  // Answers still awaited (the first load, a picked feed's older fetches): until they come, the
  // log says "Loading" and is aria-busy, not "Nothing yet" (nor a partial list taken as the whole).
  const [pending, setPending] = useState(2);
  const [kind, setKind] = useState<Kind>('all');
  const [feedId, setFeedId] = useState<number | null>(null);
  const feeds = useApp((s) => s.feeds);
  const id = useId();

  useEffect(() => {
    const client = getClient();
    let open = true;
    const offCalls = client.on('activity', (entry) => setCalls((list) => merge(list, [entry])));
    const offFetches = client.on('fetch', (entry) => setFetches((list) => merge(list, [entry])));
    const failed = (e: unknown) => open && setError(e instanceof Error ? e.message : String(e));
    client
      .activity(SHOWN)
      .then((list) => open && setCalls((current) => merge(current, list)), failed)
      .finally(() => open && setPending(oneLess));
    client
      .fetchLog({ limit: SHOWN })
      .then((list) => open && setFetches((current) => merge(current, list)), failed)
      .finally(() => open && setPending(oneLess));
    return () => {
      open = false;
      offCalls();
      offFetches();
    };
  }, []);

  // One feed's fetches may be older than the newest 200 of all: ask for them when it is picked.
  useEffect(() => {
    if (feedId === null) return;
    let open = true;
    setPending((n) => n + 1);
    getClient()
      .fetchLog({ feedId, limit: SHOWN })
      .then((list) => open && setFetches((current) => merge(current, list)))
      .catch(() => {})
      .finally(() => setPending(oneLess));
    return () => {
      open = false;
    };
  }, [feedId]);

  const feedUrl = feedId === null ? null : (feeds.find((f) => f.id === feedId)?.url ?? null);
  const rows = useMemo(() => {
    const list: Row[] = [];
    if (kind !== 'cloud')
      for (const e of fetches)
        if (feedId === null || e.feedId === feedId)
          list.push({ kind: 'fetch', at: e.at, key: `f${e.id}`, entry: e });
    if (kind !== 'fetch')
      for (const e of calls)
        if (feedId === null || (feedUrl !== null && e.feedUrl === feedUrl))
          list.push({ kind: 'cloud', at: e.at, key: `c${e.id}`, entry: e });
    return list.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, SHOWN);
  }, [fetches, calls, kind, feedId, feedUrl]);
  const listed = useMemo(
    () => feeds.filter((f) => !f.own).sort((a, b) => a.title.localeCompare(b.title)),
    [feeds],
  );

  return (
    <section className="activity" data-testid="activity-log" aria-label="Activity" aria-busy={pending > 0}>
      <header className="activity-head">
        <h2>Activity</h2>
        <span className="activity-hint">every fetch and rssCloud call, newest first</span>
        <label className="visually-hidden" htmlFor={`${id}-kind`}>
          Show
        </label>
        <select
          id={`${id}-kind`}
          value={kind}
          onChange={(e) => setKind(e.target.value as Kind)}
          data-testid="activity-kind"
        >
          <option value="all">Everything</option>
          <option value="fetch">Fetches</option>
          <option value="cloud">rssCloud calls</option>
        </select>
        <label className="visually-hidden" htmlFor={`${id}-feed`}>
          Feed
        </label>
        <select
          id={`${id}-feed`}
          value={feedId ?? ''}
          onChange={(e) => setFeedId(e.target.value === '' ? null : Number(e.target.value))}
          data-testid="activity-feed"
        >
          <option value="">All feeds</option>
          {listed.map((f) => (
            <option key={f.id} value={f.id}>
              {f.title}
            </option>
          ))}
        </select>
        <button type="button" className="icon-button" aria-label="Close the activity log" onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      {error && <p className="activity-empty">{error}</p>}
      {!error && rows.length === 0 && (
        <p className="activity-empty">{pending > 0 ? 'Loading…' : 'Nothing yet.'}</p>
      )}
      {rows.length > 0 && (
        // It scrolls on its own: keyboard users must be able to scroll it too.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes focus (axe scrollable-region-focusable).
        <section className="activity-scroll" tabIndex={0} aria-label="Fetches and calls">
          <table>
            <thead>
              <tr>
                <th>Time</th>
                <th>What</th>
                <th>Feed</th>
                <th>Result</th>
                <th className="num">Size</th>
                <th className="num">New</th>
                <th className="num">ms</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) =>
                row.kind === 'fetch' ? (
                  <FetchRow key={row.key} e={row.entry} />
                ) : (
                  <CallRow key={row.key} e={row.entry} />
                ),
              )}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}

function FetchRow({ e }: { e: FetchLogEntry }) {
  return (
    <tr data-testid="fetch-row" data-feed-id={e.feedId} className={e.ok ? 'ok' : 'failed'}>
      <td data-label="Time" title={e.at}>
        {time(e.at)}
      </td>
      <td data-label="What">fetch{e.status !== null ? ` ${e.status}` : ''}</td>
      <td data-label="Feed" className="url" title={e.url}>
        {e.feedTitle}
      </td>
      <td data-label="Result" className="result">
        {fetchResult(e)}
      </td>
      <td data-label="Size" className="num">
        {size(e.bytes)}
      </td>
      <td data-label="New" className="num">
        {e.outcome === 'ok' ? e.newItems : ''}
      </td>
      <td data-label="ms" className="num">
        {e.ms}
      </td>
    </tr>
  );
}

function CallRow({ e }: { e: ActivityEntry }) {
  return (
    <tr data-testid="activity-row" className={e.ok ? 'ok' : 'failed'}>
      <td data-label="Time" title={e.at}>
        {time(e.at)}
      </td>
      <td data-label="What">
        {e.direction === 'in' ? '← ' : '→ '}
        {e.procedure} <span className="activity-peer">{e.peer}</span>
      </td>
      <td data-label="Feed" className="url" title={e.feedUrl ?? ''}>
        {e.feedUrl ?? ''}
      </td>
      <td data-label="Result" className="result">
        {e.result}
      </td>
      <td data-label="Size" className="num" />
      <td data-label="New" className="num" />
      <td data-label="ms" className="num">
        {e.latencyMs === null ? '' : e.latencyMs.toFixed(1)}
      </td>
    </tr>
  );
}
