/** Google Reader item and stream ids in every form clients send them. */
import { describe, expect, it } from 'vitest';
import { longItemId, parseItemId } from './greader/item-ids.ts';
import { parseStreamId } from './greader/streams.ts';

describe('item ids', () => {
  it.each([
    ['tag:google.com,2005:reader/item/00000000000004d2', 1234],
    ['tag:google.com,2005:reader/item/4d2', 1234], // NetNewsWire: the long prefix, unpadded hex
    ['TAG:google.com,2005:reader/item/4D2', 1234],
    ['00000000000004d2', 1234], // older NetNewsWire: 16 hex digits, no prefix
    ['1234', 1234], // the decimal short form
    [' 1234 ', 1234],
  ])('%s is item %i', (text, id) => {
    expect(parseItemId(text)).toBe(id);
  });

  it.each([
    '',
    'abc',
    '-5316394483358069765', // Google's signed short ids: never ours
    '0',
    'tag:google.com,2005:reader/item/',
    'tag:google.com,2005:reader/item/xyz',
    'tag:google.com,2005:reader/item/00000000000000000001', // 20 hex digits
    '99999999999999999999',
  ])('%j is not an item id', (text) => {
    expect(parseItemId(text)).toBeNull();
  });

  it('writes the long form with 16 hex digits and reads it back', () => {
    expect(longItemId(1234)).toBe('tag:google.com,2005:reader/item/00000000000004d2');
    for (const id of [1, 255, 4096, 2 ** 40 + 7]) expect(parseItemId(longItemId(id))).toBe(id);
  });
});

describe('stream ids', () => {
  it.each([
    ['user/-/state/com.google/reading-list', { kind: 'reading-list' }],
    ['user/1234/state/com.google/reading-list', { kind: 'reading-list' }],
    ['user/-/state/com.google/starred', { kind: 'starred' }],
    ['user/reader/state/com.google/read', { kind: 'read' }],
    ['user/-/state/com.google/kept-unread', { kind: 'kept-unread' }],
    ['user/-/state/com.google/broadcast', { kind: 'none' }],
    ['user/-/label/Tech', { kind: 'label', name: 'Tech' }],
    ['user/-/label/Tech/Blogs', { kind: 'label', name: 'Tech/Blogs' }],
    ['user/-/label/Café & Co', { kind: 'label', name: 'Café & Co' }],
    ['feed/42', { kind: 'feed', id: 42 }],
    ['feed/https://example.org/feed.xml', { kind: 'feedUrl', url: 'https://example.org/feed.xml' }],
  ])('%s', (text, ref) => {
    expect(parseStreamId(text)).toEqual(ref);
  });

  it.each(['', 'feed/', 'feed/abc', 'user/-/state/com.google/unknown', 'splice/42', 'user/-/label'])(
    '%j is refused',
    (text) => {
      expect(parseStreamId(text)).toBeNull();
    },
  );
});
