/**
 * `tidings post "text" [--link URL] [--enclosure URL-or-file] [--tag T]... [--data DIR]` and
 * `tidings posts [--json]`: the writer for a server with no window. The post goes into the same
 * publish.db as the app's, through the same checks. This process then does what it can alone
 * (a folder, a remote saveRss cloud, and their pings) for a few seconds; built-in hosting and the
 * app's own cloud need the receiver: a running `tidings serve` (or desktop app) on the same data
 * folder is told at once (src/publish/outbox-nudge.ts) and does them. Whatever is left stays owed.
 */
import { join } from 'node:path';
import type { PostView, PublishSettings } from '../app/api.ts';
import { dataDirHolder } from '../app/data-holder.ts';
import { APP_VERSION, PROJECT_URL } from '../app/version.ts';
import { systemClock } from '../common/clock.ts';
import { createHttpClient } from '../net/http-client.ts';
import { Publisher } from '../publish/publisher.ts';
import { DEFAULT_PUBLISH_SETTINGS } from '../publish/settings.ts';
import { parseCommandArgs, UsageError } from './cli.ts';
import { dataDirOption, defaultDataDir, hasData } from './paths.ts';

const POST_HELP = `Usage: tidings post "text" [--link URL] [--enclosure URL-or-file] [--tag T]... [--wait S] [--data DIR]

Stores a post in your feed (at most the limit in your publish settings, 140 characters by
default, counted as people count them), then saves and pings it where it can. Quote the text: it
is one argument.
  --link URL        the post links to this page (the item's <link> in RSS, its url in JSON Feed)
  --enclosure X     a file attached to the post (a podcast episode, a picture). X is a URL
                    (http or https: its type and length are asked of its server) or a file on
                    this computer (200 MB at most): the file is copied into the data folder
                    (publish-media/) and published with your feed (served by built-in hosting,
                    copied beside the feed in a folder target), so it is public once posted
  --tag T           a category for the post; repeat it for several (--tag rss --tag cloud)
  --wait S          seconds to keep saving and pinging here before leaving the rest owed
                    (default 15; 0 leaves at once)
  --data DIR        the data folder whose feed gets the post (default ${defaultDataDir()});
                    the app running on it publishes what this command leaves

A folder or a remote cloud (saveRss) is saved from here, with its pings. Built-in hosting and your
own cloud are the app's: the app running on the same data folder (tidings serve or the desktop
app) is told at once; with none running they wait in the outbox until one starts there.`;

const POSTS_HELP = `Usage: tidings posts [--json] [--data DIR]

Lists your posts, newest first, with each one's publish state: saved where, pinged whom and
what they answered, or what failed and when it is retried.`;

function openPublisher(dataDir: string): Publisher {
  const http = createHttpClient({
    version: APP_VERSION,
    projectUrl: PROJECT_URL,
    hostPolicy: { allowLoopback: true, allowPrivate: true },
  });
  return new Publisher({
    dbPath: join(dataDir, 'publish.db'),
    mediaDir: join(dataDir, 'publish-media'),
    http,
    clock: systemClock,
    generator: `Tidings ${APP_VERSION} (${PROJECT_URL})`,
    publicBase: () => null,
    localBase: () => null,
    ownCloud: () => null,
    blogroll: () => null,
    onChange: () => {},
    onDeleted: () => {},
    // No receiver here: hosting and pings to the app's own cloud are the app's to do.
    handles: (t) => (t.kind === 'save' ? t.target !== 'hosting' : t.endpoint !== 'own'),
    leaseMs: 30_000,
  });
}

export async function runPost(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    link: { type: 'string' },
    enclosure: { type: 'string' },
    tag: { type: 'string', multiple: true },
    data: { type: 'string' },
    wait: { type: 'string' },
  });
  if (values.help) {
    console.log(POST_HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0
        ? 'post needs its text (try tidings post --help)'
        : "put the post's text in quotes: one argument",
    );
  }
  const wait = values.wait === undefined ? 15 : Number(values.wait);
  if (!Number.isFinite(wait) || wait < 0) throw new UsageError('--wait takes a number of seconds');
  const enclosure = values.enclosure as string | undefined;
  const dataDir = dataDirOption(values.data as string | undefined);
  const publisher = openPublisher(dataDir);
  try {
    const r = await publisher.post({
      text: positionals[0]!,
      link: (values.link as string | undefined) ?? null,
      enclosure: enclosure
        ? /^https?:\/\//i.test(enclosure)
          ? { url: enclosure }
          : { filePath: enclosure }
        : null,
      tags: (values.tag as unknown as string[] | undefined) ?? [],
    });
    if (!r.ok) {
      console.error(`tidings: ${r.error.message}`);
      return 1;
    }
    await publisher.drain(wait * 1000);
    const view = publisher.get(r.value.id) ?? r.value;
    console.log(describePost(view));
    if (leftToApp(view) && !dataDirHolder(dataDir)) console.log(noAppRunning(dataDir));
    return 0;
  } finally {
    await publisher.stop();
  }
}

export async function runPosts(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    json: { type: 'boolean' },
    data: { type: 'string' },
  });
  if (values.help) {
    console.log(POSTS_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const dataDir = dataDirOption(values.data as string | undefined);
  // Listing creates nothing: a mistyped --data must not leave a folder and a database behind.
  if (!hasData(dataDir, 'publish.db')) {
    console.log(values.json ? '[]' : `No posts yet (no Tidings data in ${dataDir}).`);
    return 0;
  }
  const publisher = openPublisher(dataDir);
  try {
    const posts = publisher.list();
    if (values.json) console.log(JSON.stringify(posts, null, 2));
    else if (posts.length === 0) console.log('No posts yet.');
    else console.log(posts.map(describePost).join('\n\n'));
    return 0;
  } finally {
    await publisher.stop();
  }
}

/** Work only an app does (built-in hosting, the own cloud's pings) is still owed for this post. */
function leftToApp(p: PostView): boolean {
  return (
    p.saves.some((s) => s.target === 'hosting' && s.ok !== true) ||
    p.pings.some((g) => g.endpoint === 'own cloud' && g.ok !== true)
  );
}

/** What a post left to the app waits for, and the command that starts the app on that folder. */
export function noAppRunning(dataDir: string): string {
  const data = dataDir === defaultDataDir() ? '' : ` --data ${quoteArg(dataDir)}`;
  return [
    `No Tidings app runs on ${dataDir}: the post is stored, and its built-in hosting and your own cloud's`,
    'pings wait in the outbox until the app runs there. Start it with:',
    `  tidings serve${data}`,
    `(or npm start${data ? ` --${data}` : ''} in the project). The desktop app publishes it too when this is its data folder.`,
  ].join('\n');
}

const quoteArg = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

const mark = (ok: boolean | null) => (ok === true ? 'ok' : ok === false ? 'FAILED' : 'waiting');

/** A post and its publish state in a few lines. */
export function describePost(p: PostView): string {
  const lines = [
    `#${p.id} ${p.state}  ${p.createdAt.replace('T', ' ').slice(0, 16)} UTC  ${p.text.replace(/\s+/g, ' ')}`,
  ];
  for (const s of p.saves) {
    const retry = s.nextRetryAt ? ` (retry at ${s.nextRetryAt})` : '';
    lines.push(
      `  saved  ${s.target}: ${mark(s.ok)}${s.publicUrl ? ` ${s.publicUrl}` : ''}${s.message ? ` - ${s.message}` : ''}${retry}`,
    );
  }
  for (const g of p.pings) {
    const retry = g.nextRetryAt ? ` (retry at ${g.nextRetryAt})` : '';
    lines.push(
      `  pinged ${g.kind} ${g.endpoint}: ${mark(g.ok)}${g.message ? ` - ${g.message}` : ''}${retry}`,
    );
  }
  if (p.saves.length === 0) lines.push('  no save target is on (see the publish settings)');
  return lines.join('\n');
}

const SETTINGS_HELP = `Usage: tidings publish-settings [--set JSON] [--data DIR]

Prints the writer's settings as JSON (passwords masked); --set merges a JSON patch first, e.g.
  tidings publish-settings --set '{"title":"My notes","folder":{"enabled":true,"path":"/srv/www/notes","publicUrl":"https://example.com/notes/"}}'
Fields: title, description, link, language, charLimit, feedSize, hosting, folder, saveRss
({enabled,cloudUrl,username,password}: cloudUrl is the cloud's address, https://cloud.example/, or
its XML-RPC endpoint, https://cloud.example/RPC2), cloud ("own" or {domain,port,path,protocol}),
pingSinks ([{kind,url}]), shareBlogroll. An unknown field is refused by name.`;

export async function runPublishSettings(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    set: { type: 'string' },
    data: { type: 'string' },
  });
  if (values.help) {
    console.log(SETTINGS_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  let patch: object | null = null;
  if (typeof values.set === 'string') {
    try {
      patch = JSON.parse(values.set) as object;
    } catch (e) {
      throw new UsageError(`--set needs a JSON object: ${(e as Error).message}`);
    }
    if (!patch || typeof patch !== 'object' || Array.isArray(patch))
      throw new UsageError('--set needs a JSON object');
  }
  const dataDir = dataDirOption(values.data as string | undefined);
  if (!patch && !hasData(dataDir, 'publish.db')) {
    // Reading creates nothing: these are the settings a first post would use.
    printSettings(DEFAULT_PUBLISH_SETTINGS);
    return 0;
  }
  const publisher = openPublisher(dataDir);
  try {
    if (patch) {
      const r = publisher.updateSettings(patch);
      // A patch the settings refuse is a wrong command line: exit 2, the reason in one line.
      if (!r.ok) throw new UsageError(r.error.message);
    }
    printSettings(publisher.settings());
    return 0;
  } finally {
    await publisher.stop();
  }
}

/** The settings as JSON, passwords masked. */
function printSettings(s: PublishSettings): void {
  const mask = (o: { password: string } | null) => (o ? { ...o, password: o.password ? '********' : '' } : o);
  console.log(
    JSON.stringify(
      { ...s, hosting: { ...s.hosting, private: mask(s.hosting.private) }, saveRss: mask(s.saveRss) },
      null,
      2,
    ),
  );
}
