import { describe, expect, it } from 'vitest';
import { fileName, formatMegabytes, isWebUrl, mediaKind } from './format';

describe('formatMegabytes', () => {
  const cases: [number | null, string | null][] = [
    [null, null],
    [0, null],
    [-5, null],
    [50_000, '< 0.1 MB'],
    [1_234_567, '1.2 MB'],
    [24_986_239, '25 MB'],
  ];
  for (const [bytes, text] of cases) it(`${bytes}`, () => expect(formatMegabytes(bytes)).toBe(text));
});

describe('mediaKind', () => {
  const cases: [string | null, string, string | null][] = [
    ['audio/mpeg', 'http://x/a', 'audio'],
    ['Video/MP4', 'http://x/a', 'video'],
    ['image/png', 'http://x/a.mp3', null],
    [null, 'http://x/show.mp3?x=1', 'audio'],
    [null, 'http://x/clip.webm', 'video'],
    [null, 'http://x/doc.pdf', null],
  ];
  for (const [type, url, kind] of cases) it(`${type} ${url}`, () => expect(mediaKind(type, url)).toBe(kind));
});

describe('isWebUrl', () => {
  const cases: [string | null, boolean][] = [
    ['https://a.example/x', true],
    ['http://a.example', true],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
    ['/relative', false],
    [null, false],
  ];
  for (const [url, web] of cases) it(`${url}`, () => expect(isWebUrl(url)).toBe(web));
});

describe('fileName', () => {
  it('takes the last path segment', () => {
    expect(fileName('https://cdn.example/pod/ep%2042.mp3?x')).toBe('ep 42.mp3');
    expect(fileName('https://cdn.example/')).toBe('https://cdn.example/');
  });
});
