/**
 * Google Reader stream ids: the built-in states (`user/-/state/com.google/...`, where `-` may
 * also be the user's id or name), labels (`user/-/label/<name>`: our folders, named by their
 * path, 'Tech/Blogs'), and feeds (`feed/<our id>`, or `feed/<url>` as FreshRSS also reads them
 * and as subscribe sends them).
 */

export type StreamRef =
  | { kind: 'reading-list' }
  | { kind: 'starred' }
  | { kind: 'read' }
  | { kind: 'kept-unread' }
  | { kind: 'label'; name: string }
  | { kind: 'feed'; id: number }
  | { kind: 'feedUrl'; url: string }
  /** States we know and keep nothing for (broadcast, like, tracking-*): an empty stream. */
  | { kind: 'none' };

export const READING_LIST = 'user/-/state/com.google/reading-list';
export const STARRED = 'user/-/state/com.google/starred';
export const READ = 'user/-/state/com.google/read';
export const labelStreamId = (name: string) => `user/-/label/${name}`;
export const feedStreamId = (id: number) => `feed/${id}`;

const STATE = /^user\/[^/]*\/state\/com\.google\/(.+)$/;
const LABEL = /^user\/[^/]*\/label\/(.+)$/;

export function parseStreamId(text: string | null | undefined): StreamRef | null {
  const s = (text ?? '').trim();
  if (!s) return null;
  const state = STATE.exec(s)?.[1];
  if (state !== undefined) {
    switch (state) {
      case 'reading-list':
        return { kind: 'reading-list' };
      case 'starred':
        return { kind: 'starred' };
      case 'read':
        return { kind: 'read' };
      case 'kept-unread':
        return { kind: 'kept-unread' };
      case 'broadcast':
      case 'broadcast-friends':
      case 'like':
      case 'fresh':
      case 'tracking-kept-unread':
      case 'tracking-body-link-used':
      case 'tracking-emailed':
      case 'tracking-item-link-used':
        return { kind: 'none' };
      default:
        return null;
    }
  }
  const label = LABEL.exec(s)?.[1];
  if (label !== undefined) return { kind: 'label', name: label.trim() };
  if (s.startsWith('feed/')) {
    const rest = s.slice('feed/'.length);
    if (/^[0-9]{1,15}$/.test(rest)) return { kind: 'feed', id: Number(rest) };
    if (/^https?:\/\//i.test(rest)) return { kind: 'feedUrl', url: rest };
    return null;
  }
  return null;
}
