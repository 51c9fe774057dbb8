/**
 * A backup's contents in words, the same in the CLI and in Settings: plain functions of plain
 * data (the renderer imports this file too, so it imports nothing but types).
 */
import type { DataSummary, SecretKind } from '../app/api.ts';

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "200 feeds, 100,000 items (3,000 starred), 12 posts": what a folder or a backup holds, in one line. */
export function describeSummary(s: DataSummary): string {
  const parts = [
    count(s.feeds, 'feed'),
    `${count(s.items, 'item')}${s.starred > 0 ? ` (${s.starred.toLocaleString('en-US')} starred)` : ''}`,
  ];
  if (s.folders > 0) parts.push(count(s.folders, 'folder'));
  if (s.posts > 0) parts.push(count(s.posts, 'post'));
  if (s.savedSearches > 0) parts.push(count(s.savedSearches, 'saved search', 'saved searches'));
  if (s.muteFilters > 0) parts.push(count(s.muteFilters, 'mute filter'));
  if (s.cloudSubscribers > 0) parts.push(count(s.cloudSubscribers, 'cloud subscriber'));
  return parts.join(', ');
}

/** "feed logins: 2; publishing passwords: 1" */
export function describeKinds(kinds: readonly SecretKind[]): string {
  return kinds.map((k) => `${k.label}: ${k.count}`).join('; ');
}
