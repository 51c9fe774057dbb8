import { describe, expect, it } from 'vitest';
import type { FeedView } from '../../../src/app/api';
import { feedView } from '../testing/fixtures';
import { feedLabel, totalUnread } from './group-feeds';

function feed(id: number, title: string, folder: string | null, unread = 0): FeedView {
  return feedView(id, { title, folder, unread, delivery: 'polled every 60 min', folderPath: folder });
}

describe('feedLabel and totalUnread', () => {
  it('falls back to the URL and sums unread', () => {
    expect(feedLabel(feed(7, ' ', null))).toBe('http://127.0.0.1/7.xml');
    expect(totalUnread([feed(1, 'a', null, 2), feed(2, 'b', null, 5)])).toBe(7);
  });
});
