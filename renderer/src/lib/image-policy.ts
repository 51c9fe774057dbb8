/**
 * Which remote images an item may load (issue 9, privacy). 'load': all; 'blockTrackers' (the
 * default): not 1x1 pixels and not known tracking hosts; 'clickToLoad': nothing until clicked,
 * except for feeds on the allow list (FeedView.loadImages). No image ever sends a Referer.
 */
import type { ImagePolicy } from '../../../src/app/api';

export const DEFAULT_IMAGE_POLICY: ImagePolicy = 'blockTrackers';

/** Hosts (and their subdomains) that serve tracking pixels in feeds, not pictures. */
export const TRACKER_HOSTS = [
  'feeds.feedburner.com',
  'feedproxy.google.com',
  'pixel.wp.com',
  'stats.wordpress.com',
  'google-analytics.com',
  'doubleclick.net',
  'scorecardresearch.com',
  'quantserve.com',
  'feedblitz.com',
  'pixel.quantcount.com',
  'pixel.mathtag.com',
  'ad.doubleclick.net',
  'analytics.twitter.com',
  'facebook.com/tr',
  'medium.com/_/stat',
  'stats.g.doubleclick.net',
  'sb.scorecardresearch.com',
  'feedpress.me/t',
  'pixel.substack.com',
  'eotrx.substackcdn.com',
  'ct.pinterest.com',
] as const;

/** A dimension attribute of 1 or 0 (or "1px"): an invisible image. */
function tiny(value: string | null): boolean {
  if (value === null) return false;
  const n = Number.parseFloat(value);
  return Number.isFinite(n) && n <= 1;
}

export function isTrackerImage(src: string, width: string | null, height: string | null): boolean {
  if (tiny(width) && tiny(height)) return true;
  if ((tiny(width) && height === null) || (tiny(height) && width === null)) return true;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  const hostPath = `${host}${url.pathname}`;
  return TRACKER_HOSTS.some((entry) =>
    entry.includes('/') ? hostPath.startsWith(entry) : host === entry || host.endsWith(`.${entry}`),
  );
}

export type ImageDecision = 'load' | 'block' | 'ask';

/** What to do with one remote image under a policy; `allowed` is the feed's allow-list flag. */
export function decideImage(
  policy: ImagePolicy,
  allowed: boolean,
  src: string,
  width: string | null,
  height: string | null,
): ImageDecision {
  if (src.startsWith('data:')) return 'load';
  if (policy !== 'load' && isTrackerImage(src, width, height)) return 'block';
  if (policy === 'clickToLoad' && !allowed) return 'ask';
  return 'load';
}
