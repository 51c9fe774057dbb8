/**
 * `tidings import-greader URL --user NAME`: moving in from FreshRSS or Miniflux (issue 32) through
 * their Google Reader API: subscriptions with their folders, and starred items. The password is
 * read from the first line of standard input (or TIDINGS_GREADER_PASSWORD), never from the
 * command line, where other users of the machine and the shell's history would see it.
 */
import { createInterface } from 'node:readline';
import { createTidings } from '../app/tidings.ts';
import { parseCommandArgs, UsageError } from './cli.ts';
import { dataDirOption } from './paths.ts';
import { countOf } from './plural.ts';
import { askHidden, interactive, terminal } from './prompt.ts';

const HELP = `Usage: tidings import-greader <address> --user NAME [--data DIR] < password

Moves your subscriptions (with their folders) and starred items in from another reader's Google
Reader API: FreshRSS (its address ends in /api/greader.php), Miniflux (its own address), or
another Tidings (…/api/greader). Use the API password set in that reader's settings, given on
standard input (or in TIDINGS_GREADER_PASSWORD). Feeds already here are kept; running it again
adds nothing twice.`;

async function readPassword(): Promise<string> {
  const fromEnv = process.env.TIDINGS_GREADER_PASSWORD;
  if (fromEnv) return fromEnv;
  // Typed at a terminal: not shown (prompt.ts, as the backup's passphrase).
  const io = terminal();
  if (interactive(io)) return askHidden('API password: ', io);
  if (process.stdin.isTTY) process.stderr.write('API password: ');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

export async function runImportGReader(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    user: { type: 'string' },
    data: { type: 'string' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const [url, ...extra] = positionals;
  if (!url) throw new UsageError('import-greader needs the API address (try tidings import-greader --help)');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const user = values.user as string | undefined;
  if (!user) throw new UsageError('import-greader needs --user NAME');
  const password = await readPassword();
  if (!password)
    throw new UsageError('no password: give it on standard input or in TIDINGS_GREADER_PASSWORD');
  const app = createTidings({ dataDir: dataDirOption(values.data as string | undefined) });
  try {
    const r = await app.importFromGReader({ url, user, password });
    if (!r.ok) throw new Error(r.error.message);
    console.log(
      `Imported ${countOf(r.value.added, 'new feed')} (${r.value.existing} already subscribed) and ${countOf(r.value.starred, 'starred item')}.`,
    );
    for (const e of r.value.errors) console.error(`  ${e}`);
    return 0;
  } finally {
    await app.stop();
  }
}
