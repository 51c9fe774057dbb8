/**
 * Every XML document we write outside the cloud stays well-formed for a strict XML 1.0 parser
 * (saxes) whatever text it is handed (issue 31): characters XML cannot hold (C0 controls but tab,
 * LF and CR; lone surrogates; U+FFFE, U+FFFF) are stripped by the one escaping owner,
 * xml-escape.ts. Our feeds, the OPML export, the RSS Ping document and XML-RPC calls and answers.
 */
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { rssPingDocument } from '../publish/pings.ts';
import type { StoredPost } from '../publish/post.ts';
import type { SiteInput } from '../publish/site.ts';
import { writePostsAtom } from '../publish/write-atom.ts';
import { writePostsRss } from '../publish/write-rss.ts';
import { encodeFault, encodeMethodCall, encodeMethodResponse } from '../wire/xmlrpc.ts';
import { writeOpml } from './opml.ts';
import { writeRss } from './write-rss.ts';

/** Every kind XML 1.0 cannot hold, around ordinary text. */
const BAD = 'a\u0001b\u0000c\u001Fd\uD800e\uDFFFf\uFFFEg\uFFFFh\u000Bi';
const CLEAN = 'abcdefghi';

/** The first well-formedness error a strict parser finds, or null. */
function strictError(xml: string): string | null {
  let error: string | null = null;
  const parser = new SaxesParser();
  parser.on('error', (e) => {
    error ??= e.message;
  });
  parser.write(xml).close();
  return error;
}

const post: StoredPost = {
  id: 1,
  guid: 'urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e',
  rev: 1,
  createdAt: Date.UTC(2026, 10, 20),
  updatedAt: Date.UTC(2026, 10, 20),
  text: `post ${BAD}`,
  link: `https://me.example/${BAD}`,
  enclosure: null,
  tags: [`tag ${BAD}`],
  children: [],
};
const site: SiteInput = {
  title: `site ${BAD}`,
  description: `about ${BAD}`,
  link: 'https://me.example/',
  language: 'en',
  generator: 'Tidings test',
  urls: { rss: 'https://me.example/rss.xml', atom: 'https://me.example/atom.xml', json: null, home: null },
  cloud: null,
  hubs: [],
  mediaBase: null,
  posts: [post],
  blogroll: null,
};

describe('characters XML cannot hold are stripped, and the documents parse strictly', () => {
  it.each([
    [
      'an RSS feed',
      () =>
        writeRss({
          title: `t ${BAD}`,
          link: 'https://x.example/',
          description: BAD,
          items: [{ guid: BAD, title: BAD, description: `<p>${BAD}</p>` }],
        }),
    ],
    ['our posts as RSS', () => writePostsRss(site)],
    ['our posts as Atom', () => writePostsAtom(site)],
    [
      'an OPML export',
      () =>
        writeOpml({
          title: `subs ${BAD}`,
          subscriptions: [
            { url: 'https://x.example/f.xml', title: `name ${BAD}`, siteUrl: null, folder: BAD },
          ],
        }),
    ],
    [
      'an RSS Ping document',
      () => rssPingDocument({ name: BAD, siteUrl: BAD, feedUrl: BAD, tags: [BAD] }, BAD, BAD),
    ],
    ['an XML-RPC call', () => encodeMethodCall('weblogUpdates.ping', [`name ${BAD}`, { k: BAD }, [BAD]])],
    ['an XML-RPC answer', () => encodeMethodResponse({ flerror: false, message: BAD })],
    ['an XML-RPC fault', () => encodeFault(4, BAD)],
  ])('%s', (_name, write) => {
    const xml = write();
    expect(strictError(xml)).toBeNull();
    expect(xml).toContain(CLEAN);
  });
});
