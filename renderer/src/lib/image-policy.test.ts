import { describe, expect, it } from 'vitest';
import { decideImage, isTrackerImage } from './image-policy';

describe('isTrackerImage', () => {
  const cases: [string, string | null, string | null, boolean][] = [
    ['https://blog.example/pic.jpg', null, null, false],
    ['https://blog.example/p.gif', '1', '1', true],
    ['https://blog.example/p.gif', '0', '0', true],
    ['https://blog.example/p.gif', '1px', null, true],
    ['https://blog.example/p.gif', '1', '300', false],
    ['https://pixel.wp.com/b.gif?x=1', null, null, true],
    ['https://feeds.feedburner.com/~r/x/~4/abc', null, null, true],
    ['https://www.google-analytics.com/collect', null, null, true],
    ['https://medium.com/_/stat?event=post', null, null, true],
    ['https://medium.com/photo.jpg', null, null, false],
    ['https://notgoogle-analytics.com/a.png', null, null, false],
    ['not a url', null, null, false],
  ];
  for (const [src, w, h, out] of cases)
    it(`${src} ${w}x${h}`, () => expect(isTrackerImage(src, w, h)).toBe(out));
});

describe('decideImage', () => {
  const pic = 'https://blog.example/pic.jpg';
  const pixel = 'https://pixel.wp.com/g.gif';
  it('loads everything under "load"', () => {
    expect(decideImage('load', false, pixel, null, null)).toBe('load');
  });
  it('blocks trackers but loads pictures under "blockTrackers"', () => {
    expect(decideImage('blockTrackers', false, pixel, null, null)).toBe('block');
    expect(decideImage('blockTrackers', false, pic, null, null)).toBe('load');
  });
  it('asks first under "clickToLoad" unless the feed is allowed, and still blocks trackers', () => {
    expect(decideImage('clickToLoad', false, pic, null, null)).toBe('ask');
    expect(decideImage('clickToLoad', true, pic, null, null)).toBe('load');
    expect(decideImage('clickToLoad', true, pixel, '1', '1')).toBe('block');
  });
  it('lets inline data: images through (nothing leaves the machine)', () => {
    expect(decideImage('clickToLoad', false, 'data:image/png;base64,AAAA', null, null)).toBe('load');
  });
});
