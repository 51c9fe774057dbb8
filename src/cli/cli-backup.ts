/**
 * `tidings backup FILE` and `tidings restore FILE`: everything a person built in Tidings, in one
 * file and back (src/backup/ does the work; docs/backup.md describes the file). A backup is safe
 * while the app runs; a restore is not: it refuses while an app holds the folder, and asks (or
 * needs --force) before it replaces data, keeping a copy of what it replaces.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { BACKUP_FILE_EXTENSION, type BackupSecrets, type SecretKind } from '../app/api.ts';
import { dataDirHolder } from '../app/data-holder.ts';
import { createBackup, planBackup } from '../backup/create-backup.ts';
import { describeKinds, describeSummary } from '../backup/describe.ts';
import { type BackupInfo, inspectBackup, verifyBackup } from '../backup/inspect.ts';
import { restoreBackup } from '../backup/restore.ts';
import { passphraseProblem, unseal } from '../backup/seal.ts';
import { holdsSomething, summarizeDataDir } from '../backup/summary.ts';
import { REPLACED_DIR } from '../backup/swap.ts';
import { fsErrorReason } from '../common/fs-errors.ts';
import { parseCommandArgs, UsageError } from './cli.ts';
import { dataDirOption, defaultDataDir, hasData } from './paths.ts';
import { askHidden, askYesNo, interactive, type PromptIO, terminal } from './prompt.ts';

const BACKUP_HELP = `Usage: tidings backup FILE [--data DIR] [--passphrase-file F | --skip-secrets] [--force]

Writes everything you built in Tidings into one file: your subscriptions with their folders and
settings, every item with its read and starred state, saved searches, mute filters, settings, your
posts with their feeds, files and publish settings, and your own cloud's subscribers and accounts.
Safe while Tidings runs (each database is copied as one consistent snapshot). The format is
described in docs/backup.md; name the file *${BACKUP_FILE_EXTENSION}.

Secrets (feed logins, publishing passwords, cloud accounts) go in only sealed with a passphrase:
  --passphrase-file F   the passphrase is the first line of F (at least 8 characters)
  --skip-secrets        leave them out (said in a warning; enter them again after a restore)
With neither, a terminal asks for a passphrase (empty leaves them out); without a terminal they
are left out, with a warning.
  --data DIR            the data folder (default ${defaultDataDir()})
  --force               replace FILE if it exists`;

const RESTORE_HELP = `Usage: tidings restore FILE [--data DIR] [--passphrase-file F | --skip-secrets] [--force]
       tidings restore FILE --check

Puts a backup made by \`tidings backup\` (or Back up… in Settings) into the data folder: the same
river, read and starred state, folders, settings and posts. A file that is damaged, cut short, or
made by a newer Tidings is refused, and nothing is changed.

Data already in the folder is replaced only when you agree (a terminal asks; else --force), and
a copy of it is kept in DIR/${REPLACED_DIR}/<time>/. Quit Tidings on that folder first (or use
Restore… in its Settings): a restore under a running app is refused.
  --passphrase-file F   the passphrase of the backup's sealed secrets (first line of F)
  --skip-secrets        restore without them (enter them again where they are asked for)
  --data DIR            the data folder (default ${defaultDataDir()})
  --force               replace the data there without asking
  --check               only read the whole file and say what it holds; change nothing`;

/** How many tries a person at a terminal gets for a passphrase. */
const TRIES = 3;

export async function runBackup(args: string[], io: PromptIO = terminal()): Promise<number> {
  const { values, file } = commandLine(args, 'backup', BACKUP_HELP, 'backup needs the file to write');
  if (file === null) return 0;
  const dataDir = dataDirOption(values.data as string | undefined);
  if (!hasData(dataDir, 'tidings.db')) throw new Error(`there is no Tidings data in ${dataDir} to back up`);
  const target = resolve(file);
  if (existsSync(target)) {
    if (statSync(target).isDirectory())
      throw new UsageError(`${file} is a folder: give the backup's file name`);
    if (!values.force)
      throw new Error(`${file} already exists: choose another name, or add --force to replace it`);
  }
  const plan = planBackup(dataDir);
  const passphrase = plan.secrets.length === 0 ? null : await passphraseForBackup(values, plan.secrets, io);
  const made = await createBackup(dataDir, target, { passphrase });
  if (!made.ok) throw new Error(made.error.message);
  const r = made.value;
  console.log(`Backed up ${describeSummary(r.summary)} from ${dataDir} to ${file} (${megabytes(r.size)}).`);
  if (r.secrets.mode === 'sealed') {
    console.log(
      `Secrets (${describeKinds(r.secrets.kinds)}) are sealed with your passphrase: a restore asks for it.`,
    );
  }
  for (const warning of r.warnings) console.error(`warning: ${warning}`);
  return 0;
}

export async function runRestore(args: string[], io: PromptIO = terminal()): Promise<number> {
  const { values, file } = commandLine(args, 'restore', RESTORE_HELP, 'restore needs the backup file', {
    check: { type: 'boolean' },
  });
  if (file === null) return 0;
  if (values.check) {
    const verified = await verifyBackup(file);
    if (!verified.ok) throw new Error(verified.error.message);
    console.log(`${file} is a complete Tidings backup: ${describeBackup(verified.value)}.`);
    return 0;
  }
  const dataDir = dataDirOption(values.data as string | undefined);
  const inspected = await inspectBackup(file);
  if (!inspected.ok) throw new Error(inspected.error.message);
  const info = inspected.value;
  const holder = existsSync(dataDir) ? dataDirHolder(dataDir) : null;
  if (holder) {
    throw new Error(
      `Tidings is running on ${dataDir} (process ${holder.pid}): restore with Restore… in its Settings, or quit it first`,
    );
  }
  const current = existsSync(dataDir) ? summarizeDataDir(dataDir) : null;
  const replacing = holdsSomething(current);
  if (replacing && !values.force) {
    const question = `${dataDir} holds ${describeSummary(current!)}. Replace them with the backup's ${describeSummary(info.summary)}? A copy of what is there is kept in ${resolve(dataDir, REPLACED_DIR)}. [y/N] `;
    if (!interactive(io)) {
      throw new Error(
        `${dataDir} already holds ${describeSummary(current!)}: add --force to replace them with the backup (a copy is kept in ${resolve(dataDir, REPLACED_DIR)})`,
      );
    }
    if (!(await askYesNo(question, io))) {
      console.error('Nothing was changed.');
      return 1;
    }
  }
  const skipSecrets = values['skip-secrets'] === true;
  const passphrase =
    info.secrets.mode === 'sealed' && !skipSecrets ? await passphraseForRestore(values, info, io) : null;
  const restored = await restoreBackup(file, dataDir, {
    passphrase,
    skipSecrets: skipSecrets || (info.secrets.mode === 'sealed' && passphrase === null),
    replaceExisting: replacing,
  });
  if (!restored.ok) throw new Error(restored.error.message);
  const r = restored.value;
  console.log(`Restored ${describeSummary(r.summary)} into ${dataDir} (${describeBackup(info)}).`);
  if (r.replacedCopy) console.log(`What was there before is kept in ${r.replacedCopy}.`);
  for (const warning of r.warnings) console.error(`warning: ${warning}`);
  return 0;
}

type Values = Record<string, string | boolean | undefined>;

/** The options both commands share, --help answered (file null: nothing more to do). */
function commandLine(
  args: string[],
  command: string,
  help: string,
  missing: string,
  extra: Record<string, { type: 'boolean' }> = {},
): { values: Values; file: string | null } {
  const { values, positionals } = parseCommandArgs(args, {
    data: { type: 'string' },
    'passphrase-file': { type: 'string' },
    'skip-secrets': { type: 'boolean' },
    force: { type: 'boolean' },
    ...extra,
  });
  if (values.help) {
    console.log(help);
    return { values, file: null };
  }
  if (positionals.length === 0) throw new UsageError(`${missing} (try tidings ${command} --help)`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
  if (values['passphrase-file'] !== undefined && values['skip-secrets']) {
    throw new UsageError('--passphrase-file and --skip-secrets contradict each other');
  }
  return { values, file: positionals[0]! };
}

async function passphraseFromFile(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read the passphrase file ${path}: ${fsErrorReason(e)}`);
  }
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line === '') throw new UsageError(`the passphrase file ${path} starts with an empty line`);
  return line;
}

async function passphraseForBackup(
  values: Values,
  secrets: SecretKind[],
  io: PromptIO,
): Promise<string | null> {
  if (values['skip-secrets']) return null;
  const file = values['passphrase-file'] as string | undefined;
  if (file !== undefined) {
    const passphrase = await passphraseFromFile(file);
    const problem = passphraseProblem(passphrase);
    if (problem) throw new UsageError(`${problem} (in ${file})`);
    return passphrase;
  }
  if (!interactive(io)) return null; // left out, and the backup's warning says so
  io.output.write(`The backup holds secrets: ${describeKinds(secrets)}.\n`);
  for (let i = 0; i < TRIES; i++) {
    const passphrase = await askHidden('Passphrase to seal them (empty: leave them out): ', io);
    if (passphrase === '') return null;
    const problem = passphraseProblem(passphrase);
    if (problem) {
      io.output.write(`${problem}\n`);
      continue;
    }
    if ((await askHidden('The same passphrase again: ', io)) === passphrase) return passphrase;
    io.output.write('The two passphrases differ.\n');
  }
  throw new Error('no passphrase was agreed on; nothing was written');
}

async function passphraseForRestore(values: Values, info: BackupInfo, io: PromptIO): Promise<string | null> {
  const file = values['passphrase-file'] as string | undefined;
  if (file !== undefined) return passphraseFromFile(file);
  if (!interactive(io)) {
    throw new UsageError(
      `this backup holds sealed secrets (${describeKinds(info.secrets.kinds)}): give --passphrase-file F, or --skip-secrets to restore without them`,
    );
  }
  for (let i = 0; i < TRIES; i++) {
    const passphrase = await askHidden(
      "Passphrase of the backup's secrets (empty: restore without them): ",
      io,
    );
    if (passphrase === '') return null;
    const opened = await unseal(info.box!, passphrase, info.backupId);
    if (opened.ok) return passphrase;
    io.output.write(`${opened.error.message}\n`);
  }
  throw new Error("the passphrase did not open the backup's secrets; nothing was changed");
}

function describeBackup(info: BackupInfo): string {
  const secrets: Record<BackupSecrets['mode'], string> = {
    none: 'no secrets',
    sealed: 'secrets sealed with a passphrase',
    leftOut: 'secrets left out',
  };
  return `made ${info.createdAt.replace('T', ' ').slice(0, 16)} UTC by Tidings ${info.appVersion}, ${describeSummary(info.summary)}, ${secrets[info.secrets.mode]}`;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
