/**
 * `npm run docs:cli`: writes docs/cli.md from what the `tidings` command prints for `--help`, so
 * the page cannot drift from the commands (scripts/docs-cli.test.ts fails when it has).
 *
 * The commands are found, not listed here: every command in `tidings --help`, then every
 * `tidings ... --help` that a help text names (`tidings cloud user --help`), each run as a user
 * runs it (`node bin/tidings.cjs <command> --help`). Only the short introductions are written
 * here, by hand; a command without one still gets its help on the page.
 *
 *   node scripts/docs-cli.ts           write docs/cli.md
 *   node scripts/docs-cli.ts --check   exit 1 (saying what to run) when docs/cli.md is out of date
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
export const CLI_DOC = resolve(ROOT, 'docs', 'cli.md');
const BIN = resolve(ROOT, 'bin', 'tidings.cjs');

/**
 * The help of `serve` prints the data folder of the machine it runs on. The page is the same on
 * every machine: the commands run with this stand-in for it, written on the page as <data folder>.
 */
const DATA_STAND_IN = resolve('/tidings-docs-data-folder');

const INTRO = `# The \`tidings\` command

\`tidings\` is the command line of Tidings: the reader's feeds (\`parse\`, \`fetch\`, \`opml\`), the app in
browser mode (\`serve\`, which \`npm start\` runs when there is no Electron window), the writer (\`post\`,
\`posts\`, \`publish-settings\`) and the cloud (\`cloud\`). In a clone, after \`npm install\`, run it as
\`npx tidings <command>\` (or \`npm run tidings -- <command>\`); on a Node older than 24 it runs
itself again on the Node 24 the package brings.

- **Addresses.** Where a command takes a feed's address, a site's address will do (\`example.com\`,
  even without \`https://\`): like "Add a feed" in the app, the command follows the page's
  \`<link rel="alternate">\` tags and the usual paths (\`/feed\`, \`/rss.xml\`...) to the feed.
- **The data folder.** \`--data DIR\`, else \`$TIDINGS_DATA\`, else \`~/.local/share/tidings\` on Linux
  (\`$XDG_DATA_HOME/tidings\` when that is set), \`~/Library/Application Support/Tidings\` on macOS,
  \`%APPDATA%\\Tidings\` on Windows; the help below writes it \`<data folder>\`. Commands that only
  read (\`posts\`, \`publish-settings\` without \`--set\`, \`opml export\`, \`fetch\`) create nothing: a
  mistyped \`--data\` says there is nothing there. \`--data\` naming a file is refused.
- **Exit codes**, the same for every command: **0** done; **1** the operation failed (a feed that
  would not load, a file that cannot be read, a port in use); **2** the command line was wrong (an
  unknown option, an unknown \`publish-settings\` field, a missing argument, \`serve --public-url\`
  without \`--receiver-port\`), with one line saying why. A file that is not there
  (\`post --enclosure missing.mp3\`) is said in words, not with Node's error code.
- **Stopping.** \`serve\` and \`cloud\` run until Ctrl-C, SIGTERM or SIGHUP, then stop cleanly
  (\`serve\` lets fetches in flight finish and be stored; both close their databases). A second
  Ctrl-C waits for that, 15 s at most. A port in use stops them at once (exit 1), naming the port
  and the flag that picks another.

This page is generated from each command's \`--help\` by \`npm run docs:cli\` (scripts/docs-cli.ts);
a test fails when it differs from what the commands print. Do not edit it by hand.
`;

/** A few lines before a command's help: what it is for, and where the guide says more. */
const ABOUT: Record<string, string> = {
  '': 'Every command, and the options every command takes.',
  parse:
    'Reads feeds from files or addresses and prints what Tidings makes of them: the feed model a ' +
    'subscription would store, and the notes the parser left (a repaired document, items past the ' +
    'cap, an encoding fallback). Changes nothing.',
  fetch:
    'One fetch as the poller would make it, with what the poller would decide from it. Use it to ' +
    'see why a feed is checked when it is ([reading.md](reading.md#how-often-feeds-are-checked)).',
  serve:
    'The whole app in your browser: the core, the window and its API on 127.0.0.1, with a URL ' +
    'carrying the access token. `npm start` runs it, with your options, when there is no Electron ' +
    'window. The tunnel and the receiver: [reading.md](reading.md#real-time).',
  opml: 'Your subscriptions in and out, folders kept, with any login left out of the export.',
  cloud:
    'An rssCloud server and WebSub hub of your own, on SQLite on one machine or on PostgreSQL as ' +
    'several instances. [cloud.md](cloud.md) is the guide to running one.',
  'cloud user':
    "Accounts for rssCloud.saveRss, the cloud's door through which a writer saves a feed it hosts. " +
    'Use the same `--data` or `--database` as the cloud.',
  post:
    'Writes a post from a shell, published exactly as one from the composer ' +
    '([writing.md](writing.md)). With the app running on the same data folder it is published at once.',
  posts: 'What became of each post: saved where, pinged whom, what they answered.',
  'publish-settings':
    "The writer's settings as JSON (the same as Settings > Your feed in the app), and a way to change " +
    'them from a script.',
};

const run = promisify(execFile);

async function help(command: string): Promise<string> {
  const args = [BIN, ...command.split(' ').filter(Boolean), '--help'];
  const env = { ...process.env, TIDINGS_DATA: DATA_STAND_IN, NO_COLOR: '1' };
  const { stdout } = await run(process.execPath, args, { cwd: ROOT, env, timeout: 60_000 });
  return stdout.trimEnd().replaceAll(DATA_STAND_IN, '<data folder>');
}

/** Commands listed under "Commands:" in the top-level help (their first word). */
function listedCommands(topHelp: string): string[] {
  const section = topHelp.split(/^Commands:$/m)[1]?.split(/^\S/m)[0] ?? '';
  const names = [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!);
  return [...new Set(names)];
}

/** `tidings cloud user --help` named in a help text: "cloud user". */
function namedHelps(text: string): string[] {
  return [...text.matchAll(/tidings ((?:[a-z][\w-]* )+)--help/g)].map((m) => m[1]!.trim());
}

/** Every command with its help, parents before the commands their help names. */
export async function collectHelps(): Promise<{ command: string; text: string }[]> {
  const top = await help('');
  const found: { command: string; text: string }[] = [{ command: '', text: top }];
  const seen = new Set(['']);
  let next = listedCommands(top).filter((c) => !seen.has(c));
  while (next.length > 0) {
    for (const c of next) seen.add(c);
    const texts = await Promise.all(next.map(help));
    const named: string[] = [];
    next.forEach((command, i) => {
      found.push({ command, text: texts[i]! });
      named.push(...namedHelps(texts[i]!).filter((c) => !seen.has(c)));
    });
    next = [...new Set(named)];
  }
  // Each command's own page order: top level in its help's order, a subcommand right after its parent.
  const order = (c: string) => found.findIndex((f) => f.command === c.split(' ')[0]);
  return found.sort((a, b) => order(a.command) - order(b.command) || a.command.length - b.command.length);
}

export async function renderCliDoc(): Promise<string> {
  const helps = await collectHelps();
  const title = (command: string) => `tidings${command ? ` ${command}` : ''}`;
  const anchor = (command: string) => title(command).replaceAll(' ', '-');
  const contents = helps.map(({ command }) => `- [\`${title(command)}\`](#${anchor(command)})`).join('\n');
  const sections = helps.map(({ command, text }) => {
    const about = ABOUT[command];
    return [`## \`${title(command)}\``, ...(about ? [about] : []), `\`\`\`text\n${text}\n\`\`\``].join(
      '\n\n',
    );
  });
  return `${INTRO}\n${contents}\n\n${sections.join('\n\n')}\n`;
}

if (import.meta.main) {
  const page = await renderCliDoc();
  if (process.argv.includes('--check')) {
    const current = readFileSync(CLI_DOC, 'utf8');
    if (current !== page) {
      console.error('docs/cli.md differs from what the commands print: run `npm run docs:cli`.');
      process.exitCode = 1;
    }
  } else {
    writeFileSync(CLI_DOC, page);
    console.log(`wrote ${CLI_DOC}`);
  }
}
