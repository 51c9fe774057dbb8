/**
 * The cloud's folders keep to their layers (README.md here says why): a door translates a request
 * into the core and never reaches past it into a store or the delivery; a store knows nothing of
 * who asked or who is told. Checked on the source, so a crossed line fails the suite instead of
 * waiting for a review. Tests and the test kits are outside the rule.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLOUD = dirname(fileURLToPath(import.meta.url));
type Layer = 'core' | 'doors' | 'delivery' | 'store' | 'pages' | 'ops';

/** For each layer, the layers it must not import, and those it may import only as types. */
const RULES: Record<Layer, { never: Layer[]; typesOnly?: Layer[] }> = {
  doors: { never: ['store', 'delivery'] },
  store: { never: ['doors', 'pages', 'delivery'], typesOnly: ['core'] },
  core: { never: ['doors', 'pages'] },
  delivery: { never: ['doors', 'pages'] },
  pages: { never: ['doors', 'delivery'] },
  // What `tidings cloud` adds for operators watches the cloud from outside: never a door.
  ops: { never: ['doors'] },
};
/**
 * The one door handed the store: the reference's test API exists to seed and read it (mounted
 * only with --test-api), so it names the store's row types.
 */
const ALLOWED = new Set(['doors/test-api.ts -> store/store.ts (types)']);

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every static and dynamic relative import of a file, resolved to a path under src/cloud/. */
function importsOf(root: string, file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  const pattern =
    /(?:^|\n)\s*(import\s+type\s|import\s|export\s+(?:type\s+)?\*?\s*\{?[^;]*?from\s)[^;]*?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(pattern)) {
    const spec = m[2] ?? m[3]!;
    found.push({
      from: relative(root, file),
      to: relative(root, resolve(dirname(file), spec)),
      typeOnly: m[1]?.startsWith('import type') === true || /^export\s+type/.test(m[1] ?? ''),
    });
  }
  return found;
}

const layerOf = (path: string): Layer | 'top' | 'outside' => {
  if (path.startsWith('..')) return 'outside';
  const first = path.split('/')[0]!;
  return first in RULES ? (first as Layer) : 'top';
};

/** The crossings of a set of files, as "from -> to" lines. */
function crossings(root: string): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(root)) {
    for (const imp of importsOf(root, file)) {
      const from = layerOf(imp.from);
      const to = layerOf(imp.to);
      if (imp.to.startsWith('../testing/'))
        out.push(`${imp.from} -> src/testing (a test kit in production code)`);
      if (from === 'top' || from === 'outside' || to === 'top' || to === 'outside' || from === to) continue;
      const rule = RULES[from];
      const line = `${imp.from} -> ${imp.to}${imp.typeOnly ? ' (types)' : ''}`;
      if (ALLOWED.has(line)) continue;
      if (rule.never.includes(to)) out.push(line);
      else if (rule.typesOnly?.includes(to) && !imp.typeOnly) out.push(`${line}: only types may cross`);
    }
  }
  return out;
}

describe('the cloud keeps its layers', () => {
  it('doors never import stores or the delivery, stores never import doors, and so on', () => {
    expect(crossings(CLOUD)).toEqual([]);
  });

  it('reports each kind of crossing (the check itself works)', () => {
    const root = mkdtempSync(join(tmpdir(), 'cloud-layers-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('doors/bad.ts', "import { SqliteCloudStore } from '../store/sqlite.ts';\n");
    write('doors/lazy.ts', "const m = await import('../delivery/fanout.ts');\n");
    write(
      'store/bad.ts',
      "import type { Outcome } from '../core/types.ts';\nimport { plain } from '../doors/answers.ts';\n",
    );
    write('store/value.ts', "import { messages } from '../core/messages.ts';\n");
    write('core/kit.ts', "import { startTestCloud } from '../../testing/cloud-kit.ts';\n");
    write('core/fine.ts', "import { x } from '../store/store.ts';\n");
    write('doors/x.test.ts', "import { y } from '../store/sqlite.ts';\n");
    try {
      expect(crossings(root).sort()).toEqual([
        'core/kit.ts -> src/testing (a test kit in production code)',
        'doors/bad.ts -> store/sqlite.ts',
        'doors/lazy.ts -> delivery/fanout.ts',
        'store/bad.ts -> doors/answers.ts',
        'store/value.ts -> core/messages.ts: only types may cross',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
