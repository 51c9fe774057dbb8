import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MAX_OPML_BYTES, readOpmlFile } from './opml-file.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tidings-opml-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('reads an OPML file (a BOM is dropped) and names it', async () => {
  const file = join(dir, 'blogroll.opml');
  writeFileSync(
    file,
    '\uFEFF<?xml version="1.0"?><opml version="2.0"><body><outline xmlUrl="http://a/"/></body></opml>',
  );
  const r = await readOpmlFile(file);
  expect(r).toMatchObject({ ok: true, fileName: 'blogroll.opml' });
  if (r.ok) expect(r.text.startsWith('<?xml')).toBe(true);
});

it('says why a file cannot be imported', async () => {
  expect(await readOpmlFile(join(dir, 'missing.opml'))).toEqual({
    ok: false,
    message: 'Could not open missing.opml: it does not exist.',
  });
  const notOpml = join(dir, 'page.opml');
  writeFileSync(notOpml, '<html><body>hello</body></html>');
  expect(await readOpmlFile(notOpml)).toEqual({
    ok: false,
    message: 'page.opml is not an OPML subscription list.',
  });
  const big = join(dir, 'big.opml');
  writeFileSync(big, Buffer.alloc(MAX_OPML_BYTES + 1, 0x20));
  expect(await readOpmlFile(big)).toMatchObject({ ok: false, message: expect.stringMatching(/too large/) });
  expect(await readOpmlFile(dir)).toMatchObject({ ok: false, message: expect.stringMatching(/not a file/) });
});
