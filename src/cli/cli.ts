/**
 * The `tidings` command line. Each command answers --help; a failure prints one line. Exit codes,
 * the same for every command: 0 done, 1 the operation failed (a feed that would not load, a file
 * that cannot be read, a port in use), 2 the command line itself was wrong (UsageError).
 * bin/tidings.cjs runs this file on Node 24 (type stripping, no build).
 */
import { parseArgs } from 'node:util';
import { describeError } from '../common/errors.ts';
import { UsageError } from './usage-error.ts';

export { UsageError };

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

const HELP = `Usage: tidings <command> [options]

Commands:
  parse <file-or-url>... [--json]   Parse feeds and print the normalised model
  fetch <url> [--data DIR]          One polite fetch: status, validators, bytes, next due time
  serve [--port P] [--data DIR]     Browser mode: the app on 127.0.0.1, prints the URL to open
  opml import <file> [--data DIR]   Import subscriptions (folders kept)
  opml export [--data DIR]          Print your subscriptions as OPML 2.0
  import-greader <address> --user NAME [--data DIR] < password
                                    Move in from FreshRSS or Miniflux: feeds, folders, stars
  cloud [--port 5337] [--data DIR]  Run an rssCloud server (see tidings cloud --help)
  post "text" [--link URL] [--enclosure URL-or-file] [--tag T]... [--wait S] [--data DIR]
                                    Write a post: saved and pinged (see tidings post --help)
  posts [--json] [--data DIR]       Your posts with their publish state
  publish-settings [--set JSON]     The writer's settings (feed title, targets, cloud, ping sinks)
  backup FILE [--data DIR]          Everything you built in Tidings, in one file (see --help)
  restore FILE [--data DIR]         Put a backup back: asks before replacing, keeps a copy

Options:
  --help, -h                        This help; tidings <command> --help for a command's options
  --version, -v                     Print the version`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      // Each command loads only what it uses: `tidings post` starts without the reader's app,
      // the browser mode or the feed parser (start-up is most of a short command's time).
      case 'parse':
        return await (await import('./cli-parse.ts')).runParse(rest);
      case 'fetch':
        return await (await import('./cli-fetch.ts')).runFetch(rest);
      case 'serve':
        return await (await import('./cli-serve.ts')).runServe(rest);
      case 'opml':
        return await (await import('./cli-opml.ts')).runOpml(rest);
      case 'import-greader':
        return await (await import('./cli-import-greader.ts')).runImportGReader(rest);
      case 'post':
        return await (await import('./cli-post.ts')).runPost(rest);
      case 'posts':
        return await (await import('./cli-post.ts')).runPosts(rest);
      case 'publish-settings':
        return await (await import('./cli-post.ts')).runPublishSettings(rest);
      case 'backup':
        return await (await import('./cli-backup.ts')).runBackup(rest);
      case 'restore':
        return await (await import('./cli-backup.ts')).runRestore(rest);
      case 'cloud': {
        const { runCloudCli } = await import('../cloud/cli.ts');
        return await runCloudCli(rest);
      }
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        if (command === undefined) {
          console.error(HELP);
          return EXIT_USAGE;
        }
        console.log(HELP);
        return 0;
      case '--version':
      case '-v': {
        const { APP_VERSION } = await import('../app/version.ts');
        console.log(APP_VERSION);
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}" (try tidings --help)`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`tidings: ${e.message}`);
      return EXIT_USAGE;
    }
    console.error(`tidings: ${describeError(e)}`);
    return EXIT_FAILED;
  }
}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

export interface ParsedCommand {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** parseArgs with our error wording; `--help` is always accepted. */
export function parseCommandArgs(args: string[], options: OptionSpec): ParsedCommand {
  try {
    const parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: parsed.values as ParsedCommand['values'], positionals: parsed.positionals };
  } catch (e) {
    throw new UsageError(describeError(e).replace(/\. To specify.*$/s, ''));
  }
}
