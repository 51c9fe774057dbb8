/**
 * Every real-time subscription as the settings list them: rssCloud rows and WebSub rows side by
 * side, each with its live line or the reason it is not live.
 */
import type { RealtimeSubscription } from '../app/api.ts';
import { maskUrl } from '../net/mask.ts';
import type { CloudSubscriptionRow } from '../store/realtime.ts';
import type { WebSubRow } from '../store/websub.ts';
import { EXPIRES_AFTER_MS, type RealtimeStatus } from './subscriptions.ts';

export type { RealtimeSubscription } from '../app/api.ts';

type Shown = Omit<RealtimeSubscription, 'status' | 'live' | 'message'>;

export function listSubscriptions(
  clouds: { row: CloudSubscriptionRow; status: RealtimeStatus }[],
  hubs: { row: WebSubRow; status: RealtimeStatus | null }[],
): RealtimeSubscription[] {
  const entry = (
    status: RealtimeStatus | null,
    row: { status: string; message: string | null },
    fields: Shown,
  ) => ({
    ...fields,
    status: status?.live ? 'live' : row.status,
    live: status?.live ?? false,
    message: status?.live ? status.line : (status?.reason ?? row.message),
  });
  const out: RealtimeSubscription[] = [
    ...clouds.map(({ row: r, status }) =>
      entry(status, r, {
        feedId: r.feedId,
        protocol: 'rssCloud',
        feedUrl: maskUrl(r.feedUrl),
        via: host(r.cloudUrl),
        renewsAt: r.nextRenewalAt,
        leaseEndsAt: r.lastOkAt === null ? null : r.lastOkAt + EXPIRES_AFTER_MS,
        lastDeliveryAt: r.lastNotifiedAt,
      }),
    ),
    ...hubs.map(({ row: r, status }) =>
      entry(status, r, {
        feedId: r.feedId,
        protocol: 'WebSub',
        feedUrl: maskUrl(r.topic),
        via: host(r.hub),
        renewsAt: r.nextRenewalAt,
        leaseEndsAt: r.leaseEndsAt,
        lastDeliveryAt: r.lastDeliveryAt,
      }),
    ),
  ];
  return out.sort((a, b) => a.feedId - b.feedId);
}

function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
