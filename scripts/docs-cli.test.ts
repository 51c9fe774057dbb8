/**
 * docs/cli.md is what the commands print for --help (scripts/docs-cli.ts writes it): a command or
 * flag added, changed or removed without the page following fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_DOC, collectHelps, renderCliDoc } from './docs-cli.ts';

describe('docs/cli.md', () => {
  it('is what every command prints for --help now', async () => {
    const page = await renderCliDoc();
    expect(readFileSync(CLI_DOC, 'utf8'), 'docs/cli.md is out of date: run `npm run docs:cli`').toBe(page);
  }, 60_000);

  it('covers every command the top-level help lists, and the subcommands their helps name', async () => {
    const commands = (await collectHelps()).map((h) => h.command);
    for (const c of [
      'parse',
      'fetch',
      'serve',
      'opml',
      'cloud',
      'cloud user',
      'post',
      'posts',
      'publish-settings',
    ])
      expect(commands).toContain(c);
  }, 60_000);
});
