import { describe, expect, it } from 'vitest';
import { imageAddresses, imageKey, pictureIn } from './same-image';

describe('imageKey: one picture at several sizes is one picture', () => {
  it.each([
    ['https://example.com/a/photo.jpg', 'http://www.example.com/a/photo.jpg'],
    [
      'https://blog.example/wp-content/uploads/2026/11/otter-1024x683.jpg',
      'https://blog.example/wp-content/uploads/2026/11/otter.jpg',
    ],
    [
      'https://i.guim.co.uk/img/media/abc/1000.jpg?width=140&quality=85&auto=format&fit=max&s=1f2',
      'https://i.guim.co.uk/img/media/abc/1000.jpg?width=700&quality=85&s=9e8',
    ],
    [
      'https://ichef.bbci.co.uk/news/240/cpsprodpb/1/otter.jpg',
      'https://ichef.bbci.co.uk/news/976/cpsprodpb/1/otter.jpg',
    ],
    [
      'https://res.cdn.example/image/upload/w_300,h_200,c_fill/v1/otter.png',
      'https://res.cdn.example/image/upload/w_1200,c_limit/v1/otter.png',
    ],
    ['https://cdn.example/otter@2x.png', 'https://cdn.example/otter.png'],
    [
      'https://substackcdn.com/image/fetch/w_1456,c_limit,f_auto/https%3A%2F%2Fbucket.example%2Fimages%2Fotter.png',
      'https://bucket.example/images/otter.png',
    ],
  ])('%s is %s', (a, b) => {
    expect(imageKey(a)).toBe(imageKey(b));
  });

  it.each([
    ['https://example.com/image.php?id=1', 'https://example.com/image.php?id=2'],
    ['https://example.com/a/otter.jpg', 'https://example.com/b/otter.jpg'],
    ['https://example.com/otter.jpg', 'https://other.example/otter.jpg'],
  ])('%s is not %s', (a, b) => {
    expect(imageKey(a)).not.toBe(imageKey(b));
  });
});

describe('pictureIn', () => {
  it('finds a picture by src, by any srcset candidate, and by a relative address', () => {
    const html =
      '<p>Text</p><picture><source srcset="https://cdn.example/a-480x270.webp 480w, https://cdn.example/a-960x540.webp 960w"><img src="/img/b.jpg?w=300&amp;h=200"></picture>';
    expect(imageAddresses(html)).toHaveLength(3);
    expect(pictureIn('https://cdn.example/a.webp', html, null)).toBe(true);
    expect(pictureIn('https://site.example/img/b.jpg?w=1200', html, 'https://site.example/post/1')).toBe(
      true,
    );
    expect(pictureIn('https://cdn.example/c.webp', html, null)).toBe(false);
    expect(pictureIn('https://cdn.example/a.webp', '<p>no pictures</p>', null)).toBe(false);
  });
});
