import { describe, expect, it } from 'vitest';
import {
  appUrlMatcher,
  decideNavigation,
  decideNewWindow,
  externalTarget,
  permissionAllowed,
} from './policy.ts';

describe('the app URL', () => {
  it('is app://tidings/... in a build, nothing else', () => {
    const isApp = appUrlMatcher(null);
    expect(isApp('app://tidings/index.html')).toBe(true);
    expect(isApp('app://tidings/index.html#/feed/3')).toBe(true);
    expect(isApp('app://evil/index.html')).toBe(false);
    expect(isApp('file:///home/ann/renderer/index.html')).toBe(false);
    expect(isApp('https://tidings/index.html')).toBe(false);
    expect(isApp('not a url')).toBe(false);
  });

  it('is the dev server origin in development', () => {
    const isApp = appUrlMatcher('http://localhost:5173/');
    expect(isApp('http://localhost:5173/index.html')).toBe(true);
    expect(isApp('http://localhost:5174/')).toBe(false);
    expect(isApp('app://tidings/index.html')).toBe(false);
  });
});

describe('links leaving the app', () => {
  it.each([
    ['https://example.com/post?id=1', 'https://example.com/post?id=1'],
    ['http://example.com', 'http://example.com/'],
    ['mailto:dave@example.com', 'mailto:dave@example.com'],
    ['javascript:alert(1)', null],
    ['file:///etc/passwd', null],
    ['smb://server/share', null],
    ['ms-msdt:/id PCWDiagnostic', null],
    ['feed://example.com/rss', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['http://', null],
    ['not a url', null],
  ])('%s -> %s', (url, expected) => {
    expect(externalTarget(url)).toBe(expected);
    expect(decideNewWindow(url)).toEqual({ openExternal: expected });
  });

  it('the window never navigates away; a web link goes to the browser instead', () => {
    const isApp = appUrlMatcher(null);
    expect(decideNavigation('app://tidings/index.html', isApp)).toEqual({ allow: true });
    expect(decideNavigation('https://example.com/a', isApp)).toEqual({
      allow: false,
      openExternal: 'https://example.com/a',
    });
    expect(decideNavigation('file:///tmp/x.html', isApp)).toEqual({ allow: false, openExternal: null });
  });

  it('every permission request is refused', () => {
    for (const p of [
      'notifications',
      'media',
      'geolocation',
      'clipboard-read',
      'openExternal',
      'midiSysex',
    ]) {
      expect(permissionAllowed(p)).toBe(false);
    }
  });
});
