import { describe, expect, it } from 'vitest';
import type { FeedView } from '../../../src/app/api';
import { feedLabel, groupFeedsByFolder, totalUnread } from './group-feeds';

function feed(id: number, title: string, folder: string | null, unread = 0): FeedView {
  return {
    id,
    url: `http://127.0.0.1/${id}.xml`,
    title,
    siteUrl: null,
    folder,
    unread,
    status: 'ok',
    error: null,
    lastFetchedAt: null,
    nextDueAt: null,
    dueReason: null,
    delivery: 'polled every 60 min',
    hasCredentials: false,
  };
}

describe('groupFeedsByFolder', () => {
  it('puts unfiled feeds first, then folders A-Z, titles A-Z', () => {
    const groups = groupFeedsByFolder([
      feed(1, 'zeta', 'News', 2),
      feed(2, 'Alpha', null, 1),
      feed(3, 'beta', 'Blogs'),
      feed(4, 'Feed 10', 'News', 3),
      feed(5, 'Feed 9', 'News '),
      feed(6, 'Gamma', '  '),
    ]);
    expect(groups.map((g) => [g.folder, g.feeds.map((f) => f.id), g.unread])).toEqual([
      [null, [2, 6], 1],
      ['Blogs', [3], 0],
      ['News', [5, 4, 1], 5],
    ]);
  });

  it('is empty for no feeds', () => {
    expect(groupFeedsByFolder([])).toEqual([]);
  });
});

describe('feedLabel and totalUnread', () => {
  it('falls back to the URL and sums unread', () => {
    expect(feedLabel(feed(7, ' ', null))).toBe('http://127.0.0.1/7.xml');
    expect(totalUnread([feed(1, 'a', null, 2), feed(2, 'b', null, 5)])).toBe(7);
  });
});
