import type { RealtimeSubscriptionView } from '../../../../src/app/api';
import { useNow } from '../../components/use-now';
import { formatAbsolute, formatRelative } from '../../lib/relative-time';
import { useApp } from '../../store/context';
import { feedById } from '../../store/river-slice';

const PROTOCOL_LABEL: Record<RealtimeSubscriptionView['protocol'], string> = {
  rssCloud: 'rssCloud',
  WebSub: 'WebSub hub',
};

/**
 * Every real-time subscription the reader holds, rssCloud clouds and WebSub hubs side by side: which
 * feed, through whom, whether it is live, and the hub's or cloud's own words when it is not.
 */
export function RealtimeSubscriptions({ subscriptions }: { subscriptions: RealtimeSubscriptionView[] }) {
  const feeds = useApp((s) => s.feeds);
  const now = useNow();
  if (subscriptions.length === 0) {
    return (
      <p className="settings-note" data-testid="realtime-subscriptions-empty">
        No feed is real-time yet. Feeds that name an rssCloud cloud or a WebSub hub are subscribed when you
        add them, while this computer can be reached (a tunnel or a public address).
      </p>
    );
  }
  return (
    <ul className="realtime-subscriptions" data-testid="realtime-subscriptions">
      {subscriptions.map((sub) => {
        const feed = feedById(feeds, sub.feedId);
        return (
          <li
            key={`${sub.protocol}:${sub.feedId}:${sub.feedUrl}`}
            data-testid="realtime-subscription"
            data-protocol={sub.protocol}
            data-live={sub.live}
          >
            <span className="realtime-subscription-feed">{feed?.title ?? sub.feedUrl}</span>
            <span className="realtime-subscription-via">
              {PROTOCOL_LABEL[sub.protocol]} {sub.via} · {sub.live ? 'live' : sub.status}
            </span>
            {sub.message && <span className="settings-note">{sub.message}</span>}
            {sub.lastDeliveryAt && (
              <span className="settings-note" title={formatAbsolute(sub.lastDeliveryAt)}>
                last delivery {formatRelative(sub.lastDeliveryAt, now)}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
