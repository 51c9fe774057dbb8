/**
 * The guide holds together: decision records are numbered 1..N without gaps, every path to a record
 * that the code or the docs cite exists, and every relative link in the README, the changelog and
 * docs/ reaches a file and, when it names one, a heading of that file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const DECISIONS = join(ROOT, 'docs', 'decisions');
/** Pages the README and docs/reading.md announce, written on other branches: links to them may wait. */
const ANNOUNCED = new Set(['docs/sync.md', 'docs/backup.md']);

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && keep(e.name) && !join(e.parentPath, e.name).includes('node_modules'))
    .map((e) => join(e.parentPath, e.name));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replaceAll(' ', '-');

const withoutCode = (md: string) => md.replace(/```[\s\S]*?```/g, '');

describe('docs', () => {
  it('numbers the decision records 1..N without gaps, each titled with its number', () => {
    const records = readdirSync(DECISIONS)
      .filter((f) => /^\d{4}-.*\.md$/.test(f))
      .sort();
    records.forEach((file, i) => {
      expect(file.slice(0, 4), `${file} is record ${i + 1}`).toBe(String(i + 1).padStart(4, '0'));
      expect(readFileSync(join(DECISIONS, file), 'utf8')).toMatch(new RegExp(`^# ${i + 1}\\. `));
    });
  });

  it('cites only decision records that exist', () => {
    const sources = ['src', 'main', 'renderer/src', 'e2e', 'bench', 'scripts', 'docs'].flatMap((d) =>
      filesUnder(join(ROOT, d), (n) => /\.(ts|tsx|cjs|mjs|md)$/.test(n)),
    );
    const missing = sources.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/decisions\/(\d{4}[\w.-]*)/g)]
        .map((m) => m[1]!.replace(/[.)]+$/, ''))
        .filter((cited) => !readdirSync(DECISIONS).some((f) => f === cited || f.startsWith(`${cited}-`)))
        .map((cited) => `${relative(ROOT, file)}: decisions/${cited}`),
    );
    expect(missing).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    const pages = [
      join(ROOT, 'README.md'),
      join(ROOT, 'CHANGELOG.md'),
      ...filesUnder(join(ROOT, 'docs'), (n) => n.endsWith('.md')),
    ];
    const broken = pages.flatMap((page) =>
      [...withoutCode(readFileSync(page, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((link) => !/^[a-z]+:/.test(link))
        .filter((link) => {
          const [path, anchor] = link.split('#') as [string, string | undefined];
          const target = path ? resolve(dirname(page), path) : page;
          if (!existsSync(target)) return !ANNOUNCED.has(relative(ROOT, target));
          if (!anchor || !target.endsWith('.md')) return false;
          const headings = [...withoutCode(readFileSync(target, 'utf8')).matchAll(/^#+ (.*)$/gm)];
          return !headings.some((h) => anchorOf(h[1]!) === anchor);
        })
        .map((link) => `${relative(ROOT, page)}: ${link}`),
    );
    expect(broken).toEqual([]);
  });
});
