/** `tidings opml import <file>` / `tidings opml export` against the data folder. */
import { readFile } from 'node:fs/promises';
import { createTidings } from '../app/tidings.ts';
import { fsErrorReason } from '../common/fs-errors.ts';
import { writeOpml } from '../feed/opml.ts';
import { parseCommandArgs, UsageError } from './cli.ts';
import { dataDirOption, hasData } from './paths.ts';
import { countOf } from './plural.ts';

const HELP = `Usage: tidings opml import <file> [--data DIR]
       tidings opml export [--data DIR] > subscriptions.opml

Import keeps folders (nested outlines become folders); feeds already subscribed are skipped.
Export prints OPML 2.0; credentials are never included.`;

export async function runOpml(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { data: { type: 'string' } });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const [action, file, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const dataDir = dataDirOption(values.data as string | undefined);
  if (action === 'import') {
    if (!file) throw new UsageError('opml import needs a file (try tidings opml --help)');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      // The command was right; the file is not there or not readable: a failed operation (exit 1).
      throw new Error(`cannot read ${file}: ${fsErrorReason(e)}`);
    }
    const app = createTidings({ dataDir });
    try {
      const result = await app.importOpml(text);
      if (!result.ok) throw new Error(result.error.message);
      const r = result.value;
      console.log(`Imported ${countOf(r.added, 'new feed')} (${r.existing} already subscribed).`);
      for (const e of r.errors) console.error(`  skipped: ${e}`);
      return 0;
    } finally {
      await app.stop();
    }
  }
  if (action === 'export') {
    if (file) throw new UsageError(`opml export takes no file: redirect its output instead`);
    if (!hasData(dataDir, 'tidings.db')) {
      // Exporting creates nothing: an empty list, and a word on stderr about where we looked.
      console.error(`tidings: no subscriptions in ${dataDir}`);
      process.stdout.write(
        writeOpml({ title: 'Tidings subscriptions', dateCreated: Date.now(), subscriptions: [] }),
      );
      return 0;
    }
    const app = createTidings({ dataDir });
    try {
      process.stdout.write(await app.exportOpml());
      return 0;
    } finally {
      await app.stop();
    }
  }
  throw new UsageError(
    action ? `unknown opml action "${action}" (import or export)` : 'opml needs import or export',
  );
}
