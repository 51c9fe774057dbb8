/** The words My posts shows for a save or ping, and the settings patch the section sends. */
import { describe, expect, it } from 'vitest';
import type { PublishSettings } from '../../../../src/app/api';
import { outcomeLine, pingName } from './post-state';
import { settingsPatch } from './settings-patch';

const base = { ok: null, message: null, at: null, nextRetryAt: null };

describe('outcomeLine', () => {
  it('says waiting before the first attempt', () => {
    expect(outcomeLine({ ...base, target: 'hosting', publicUrl: null })).toBe('waiting');
  });

  it('gives the answer, and counts down to a retry under a minute', () => {
    const now = Date.parse('2026-11-25T08:00:00Z');
    const line = outcomeLine(
      {
        ...base,
        kind: 'weblogUpdates',
        endpoint: 'http://127.0.0.1:1/RPC2',
        url: 'http://127.0.0.1:2/site/feed.xml',
        ok: false,
        message: 'flerror: Sorry, down for maintenance',
        at: '2026-11-25T07:59:58Z',
        nextRetryAt: '2026-11-25T08:00:04Z',
      },
      now,
    );
    expect(line).toMatch(/^failed · flerror: Sorry, down for maintenance · at \S+ · retries in 4 s$/);
  });
});

describe('settingsPatch', () => {
  const saved: PublishSettings = {
    title: 'Mine',
    description: 'd',
    link: null,
    language: 'en',
    charLimit: 140,
    feedSize: 25,
    hosting: { enabled: true, private: null },
    folder: null,
    saveRss: null,
    cloud: 'own',
    pingSinks: [],
    hubs: ['own'],
    shareBlogroll: false,
  };

  it('sends only the top-level fields that changed, nested ones whole', () => {
    const draft: PublishSettings = {
      ...saved,
      title: 'Renamed',
      hosting: { enabled: true, private: { scheme: 'wsse', username: 'u', password: 'p' } },
      pingSinks: [{ kind: 'httpGet', url: 'http://127.0.0.1:9/ping' }],
    };
    expect(settingsPatch(saved, draft)).toEqual({
      title: 'Renamed',
      hosting: draft.hosting,
      pingSinks: draft.pingSinks,
    });
    expect(settingsPatch(saved, { ...saved, hosting: { enabled: true, private: null } })).toEqual({});
  });
});

describe('pingName', () => {
  it('names the own cloud in words (it reaches WebSub readers too), others by kind and address', () => {
    expect(pingName({ kind: 'cloud', endpoint: 'own cloud' })).toBe(
      "rssCloud ping → this app's own cloud (its WebSub hub too)",
    );
    expect(pingName({ kind: 'hub', endpoint: 'https://hub.example/' })).toBe(
      'WebSub hub → https://hub.example/',
    );
  });
});
