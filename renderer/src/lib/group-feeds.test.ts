import { describe, expect, it } from 'vitest';
import type { FeedView } from '../../../src/app/api';
import { feedLabel, totalUnread } from './group-feeds';

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
    folderId: null,
    folderPath: folder,
    notify: false,
    intervalMin: null,
    favicon: null,
    titleIsCustom: false,
    loadImages: false,
  };
}

describe('feedLabel and totalUnread', () => {
  it('falls back to the URL and sums unread', () => {
    expect(feedLabel(feed(7, ' ', null))).toBe('http://127.0.0.1/7.xml');
    expect(totalUnread([feed(1, 'a', null, 2), feed(2, 'b', null, 5)])).toBe(7);
  });
});
