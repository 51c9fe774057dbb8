/**
 * `tidings cloud --help` (and `tidings-cloud --help`), written from the settings' table
 * (options.ts): the common options first, then the advanced and the cluster ones, each with its
 * environment variable and its default, so the help cannot drift from what the command reads.
 */
import { OPTIONS, type OptionGroup, type OptionSpec } from './options.ts';

const GROUPS: readonly { group: OptionGroup; title: string }[] = [
  { group: 'common', title: 'Common options' },
  { group: 'advanced', title: 'Advanced options (who may be called, limits, behaviour)' },
  { group: 'cluster', title: 'Cluster options (several instances on one PostgreSQL database)' },
];

const LEFT = 26;
const WIDTH = 100;

function defaultOf(spec: OptionSpec): string | null {
  if (typeof spec.fallback === 'boolean') return spec.fallback ? 'on' : null;
  if (typeof spec.fallback === 'string') return spec.fallback;
  return null;
}

/** Words laid out in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function entry(spec: OptionSpec): string {
  const flag = `  --${spec.flag}${spec.arg ? ` ${spec.arg}` : ''}`;
  const fallback = defaultOf(spec);
  const lines = wrap(`${spec.help}${fallback !== null ? ` (default ${fallback})` : ''}`, WIDTH - LEFT);
  lines.push(spec.env);
  const pad = ' '.repeat(LEFT);
  const head = flag.length < LEFT - 1 ? `${flag.padEnd(LEFT)}${lines[0]}` : `${flag}\n${pad}${lines[0]}`;
  return [head, ...lines.slice(1).map((l) => `${pad}${l}`)].join('\n');
}

/** The whole help for `program` ("tidings cloud" or "tidings-cloud"). */
export function serverHelp(program: string): string {
  const sections = GROUPS.map(
    ({ group, title }) =>
      `${title}:\n${OPTIONS.filter((o) => o.group === group)
        .map(entry)
        .join('\n')}`,
  );
  return `Usage: ${program} [options]

Runs an rssCloud server and WebSub hub over one list of subscribers: REST /pleaseNotify and /ping,
XML-RPC /RPC2 (rssCloud and weblogUpdates), WebSub /websub, /pingSiteForm, RSS Ping at /rssPing,
/changes.xml, a status page at / and documentation at /docs; /healthz, /readyz and /metrics for
operators. Logs are JSON lines on stdout.

Every option also reads the environment variable under it; a flag wins over its variable.
A switch is turned off by --no-NAME (--no-metrics); its variable takes true or false (1/0, yes/no).

${sections.join('\n\n')}

  --print-config          Print the configuration in force (secrets masked) and exit
  -v, --version           Print the version and exit
  -h, --help              This text

Commands (${program} COMMAND):
  healthcheck             Exit 0 when the server these settings describe answers /healthz
                          (its --admin-port when set): a container's HEALTHCHECK
  user ...                Accounts for rssCloud.saveRss (${program} user --help)`;
}
