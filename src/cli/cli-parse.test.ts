/**
 * `tidings parse` on feeds as the web serves them (issue 34), run as a user runs it: a child
 * process, files on disk and a feed host on loopback. The notes say what was repaired; a feed
 * that does not parse says why (issue 35).
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tidings } from '../testing/cli-run.ts';
import { type FeedHost, startFeedHost } from '../testing/feed-host.ts';

let host: FeedHost;
let dir: string;

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
<channel>
  <title>Web notes</title>
  <item><guid>1</guid><title>Using the &lt;canvas&gt; element</title></item>
</channel>
</rss>
`;
const PHP_WARNING =
  '<br />\n<b>Warning</b>:  Cannot modify header information in <b>/srv/feed.php</b> on line <b>8</b><br />\n';
/** Broken at line 5, column 1: the channel is never closed (ambiguous, so refused). */
const BROKEN =
  '<?xml version="1.0"?>\n<rss version="2.0">\n<channel>\n  <title>Broken</title><item><guid>1</guid></item>\n</rss>\n';

beforeAll(async () => {
  host = await startFeedHost();
  dir = mkdtempSync(join(tmpdir(), 'tidings-cli-parse-'));
  host.set('/broken.xml', { type: 'application/rss+xml', body: BROKEN });
  host.set('/broken-as-text.xml', { type: 'text/xml', body: BROKEN });
  host.set('/site/', {
    type: 'text/html',
    body: '<!doctype html><html><head><link rel="alternate" type="application/rss+xml" href="/posts.rss"></head><body></body></html>',
  });
  host.set('/posts.rss', { type: 'application/rss+xml', body: BROKEN });
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tidings parse shows what was repaired', () => {
  it('as notes in --json and as "note:" lines: a guessed encoding, junk, a mended end tag', async () => {
    const sjis = join(dir, 'sjis.xml');
    copyFileSync(
      join(import.meta.dirname, '..', 'feed', 'testdata', 'encoding', 'undeclared-shift_jis.xml'),
      sjis,
    );
    const junk = join(dir, 'junk.xml');
    writeFileSync(junk, `${PHP_WARNING + RSS}<script src="https://stats.example/c.js"></script>\n`);
    const mended = join(dir, 'mended.xml');
    writeFileSync(mended, RSS.replace('<title>Web notes</title>', '<title>Web notes</subtitle>'));

    const r = await tidings('parse', '--json', sjis, junk, mended);
    expect(r.code).toBe(0);
    const [a, b, c] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(a.title).toBe('日本語のニュース');
    expect(a.notes).toEqual([
      {
        code: 'feed.encodingGuessed',
        message: 'Encoding guessed: Shift_JIS. The feed does not say its encoding, and it is not UTF-8.',
        args: { guess: 'Shift_JIS' },
      },
    ]);
    expect(b.items.map((i: { title: string }) => i.title)).toEqual(['Using the <canvas> element']);
    expect(b.notes.map((n: { message: string }) => n.message)).toEqual([
      expect.stringMatching(
        /^Text before the root element ignored \(line 1\): “Warning: Cannot modify header/,
      ),
      expect.stringMatching(/^Text after the root element ignored \(line 10\): “<script src=/),
    ]);
    expect(c.title).toBe('Web notes');
    expect(c.notes.map((n: { message: string }) => n.message)).toEqual([
      'End tag </subtitle> repaired: read as the end of <title> (line 4, column 19).',
    ]);

    expect((await tidings('parse', '--help')).stdout).toMatch(/End tag <\/subtitle> repaired/);
    const text = await tidings('parse', sjis, junk);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ {2}note: Encoding guessed: Shift_JIS\./m);
    expect(text.stdout).toMatch(/^ {2}note: Text before the root element ignored/m);
    expect(text.stdout).toMatch(/^ {2}- \(no date\) {2}Using the <canvas> element$/m);
  });
});

describe('tidings parse on a feed that does not parse', () => {
  it('gives the XML error with its line and column, not "No feed found"', async () => {
    for (const path of ['/broken.xml', '/broken-as-text.xml']) {
      const r = await tidings('parse', `${host.url}${path}`);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/not well-formed XML: .* \(line 5, column 1\)\./);
      expect(r.stderr).not.toMatch(/No feed found/);
      const json = await tidings('parse', '--json', `${host.url}${path}`);
      expect(JSON.parse(json.stdout).error).toMatch(/not well-formed XML: .*\(line 5, column 1\)/);
    }
  });

  it('names the broken feed a site advertises', async () => {
    const r = await tidings('parse', `${host.url}/site/`);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /The feed at http:\/\/127\.0\.0\.1:\d+\/posts\.rss is broken: .*line 5, column 1/,
    );
  });
});
