/**
 * DOMPurify needs a DOM, which vitest's node environment does not have: here we check the
 * configuration and that the wrapper fails closed without one. What sanitising does to real
 * markup is checked in the browser by the Playwright e2e.
 */
import { describe, expect, it } from 'vitest';
import { looksLikeHtml, resolveUrl, SANITIZE_CONFIG, sanitizeHtml } from './sanitize';

describe('SANITIZE_CONFIG', () => {
  it('forbids what can run, restyle or submit', () => {
    for (const tag of [
      'script',
      'style',
      'iframe',
      'object',
      'embed',
      'form',
      'input',
      'button',
      'link',
      'meta',
      'base',
    ]) {
      expect(SANITIZE_CONFIG.FORBID_TAGS).toContain(tag);
    }
    for (const attr of ['style', 'class', 'id', 'srcset'])
      expect(SANITIZE_CONFIG.FORBID_ATTR).toContain(attr);
    expect(SANITIZE_CONFIG.USE_PROFILES).toEqual({ html: true });
    expect(SANITIZE_CONFIG.ALLOW_DATA_ATTR).toBe(false);
  });

  const uris: [string, boolean][] = [
    ['https://example.com/a', true],
    ['http://example.com/a', true],
    ['mailto:a@example.com', true],
    ['javascript:alert(1)', false],
    ['JaVaScRiPt:alert(1)', false],
    ['vbscript:x', false],
    ['data:text/html,<script>', false],
    ['file:///etc/passwd', false],
    ['blob:https://example.com/x', false],
    // Values without a scheme are plain attribute values, not URLs: kept.
    ['1', true],
    ['100%', true],
    ['left', true],
  ];
  for (const [uri, allowed] of uris) {
    it(`URI ${uri} ${allowed ? 'allowed' : 'refused'}`, () => {
      expect(SANITIZE_CONFIG.ALLOWED_URI_REGEXP.test(uri)).toBe(allowed);
    });
  }
});

describe('resolveUrl', () => {
  const cases: [string, string | null, string | null][] = [
    ['/img/a.png', 'https://blog.example/2025/post.html', 'https://blog.example/img/a.png'],
    ['b.png', 'https://blog.example/2025/post.html', 'https://blog.example/2025/b.png'],
    ['//cdn.example/x.png', 'https://blog.example/', 'https://cdn.example/x.png'],
    ['https://other.example/x', null, 'https://other.example/x'],
    ['/img/a.png', null, null],
    ['   ', 'https://blog.example/', null],
    ['javascript:alert(1)', 'https://blog.example/', 'javascript:alert(1)'],
  ];
  for (const [raw, base, out] of cases) {
    it(`${raw} against ${base}`, () => expect(resolveUrl(raw, base)).toBe(out));
  }
});

describe('sanitizeHtml without a DOM', () => {
  it('fails closed: markup comes back as escaped text', () => {
    const out = sanitizeHtml('<img src=x onerror="alert(1)"><script>alert(2)</script>', null);
    expect(out).not.toMatch(/[<>]/);
    expect(out).toContain('&#60;script&#62;');
  });
});

describe('looksLikeHtml', () => {
  const cases: [string, boolean][] = [
    ['Just a post about <3 things', false],
    ['line one\nline two', false],
    ['<p>para</p>', true],
    ['Tom &amp; Jerry', true],
    ['<br/>', true],
  ];
  for (const [text, html] of cases) it(JSON.stringify(text), () => expect(looksLikeHtml(text)).toBe(html));
});
