/**
 * The CLI's questions at a terminal (a stand-in terminal here: two streams that say they are
 * one): a passphrase is read without echo, and backup and restore ask what they need.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesOf, tempDirs } from '../backup/testdata/folders.ts';
import { openStore } from '../store/store.ts';
import { runBackup, runRestore } from './cli-backup.ts';
import { askHidden, askYesNo, PromptCancelled, type PromptIO } from './prompt.ts';

interface FakeTerminal extends PromptIO {
  /** Everything written to the terminal. */
  shown(): string;
  rawModes: boolean[];
}

/** A terminal that types `answers` in turn, each once the text before it has been shown. */
function terminal(answers: [RegExp, string][] = []): FakeTerminal {
  const rawModes: boolean[] = [];
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      rawModes.push(mode);
      input.isRaw = mode;
    },
  });
  const output = Object.assign(new PassThrough(), { isTTY: true });
  let shown = '';
  let seen = 0;
  output.on('data', (d: Buffer) => {
    shown += d.toString();
    const next = answers[0];
    if (next?.[0].test(shown.slice(seen))) {
      answers.shift();
      seen = shown.length;
      setImmediate(() => input.write(next[1]));
    }
  });
  return { input, output, shown: () => shown, rawModes };
}

const dirs = tempDirs('tidings-prompt-');
let data: string;
beforeAll(() => {
  data = dirs.make();
  const store = openStore(join(data, 'tidings.db'));
  store.addFeed({
    url: 'https://a.example/feed',
    credentials: { scheme: 'basic', username: 'u', password: 'p-1234567' },
  });
  store.close();
});
afterAll(() => dirs.removeAll());

describe('questions at a terminal', () => {
  it('read a passphrase without showing it, with backspace, and stop on Ctrl-C', async () => {
    const t = terminal([[/Passphrase: $/, 'secreX\u007ft\r']]);
    expect(await askHidden('Passphrase: ', t)).toBe('secret');
    expect(t.shown()).toBe('Passphrase: \n');
    expect(t.rawModes).toEqual([true, false]);
    const c = terminal([[/Again: $/, 'abc\u0003']]);
    await expect(askHidden('Again: ', c)).rejects.toBeInstanceOf(PromptCancelled);
  });

  it('take only y or yes as a yes', async () => {
    expect(await askYesNo('Go? ', terminal([[/Go\? $/, 'yes\n']]))).toBe(true);
    expect(await askYesNo('Go? ', terminal([[/Go\? $/, '\n']]))).toBe(false);
    expect(await askYesNo('Go? ', terminal([[/Go\? $/, 'maybe\n']]))).toBe(false);
  });

  it('backup asks for a passphrase twice and seals the secrets; restore asks before replacing and for the passphrase', async () => {
    const file = join(dirs.make(), 'typed.tidings-backup');
    const b = terminal([
      [/Passphrase to seal them \(empty: leave them out\): $/, 'short\r'],
      [/at least 8 characters\.\nPassphrase to seal them/, 'typed passphrase\r'],
      [/The same passphrase again: $/, 'typed passphrasX\r'],
      [/The two passphrases differ\.\nPassphrase to seal them/, 'typed passphrase\r'],
      [/The same passphrase again: $/, 'typed passphrase\r'],
    ]);
    expect(await runBackup([file, '--data', data], b)).toBe(0);
    expect(b.shown()).toMatch(/^The backup holds secrets: feed logins: 1\./);
    expect(b.shown()).not.toMatch(/typed/);

    // Restoring over the same data: no is no, and nothing changes.
    const before = filesOf(data);
    const no = terminal([[/Replace them with the backup's 1 feed, 0 items\? .*\[y\/N\] $/, 'n\n']]);
    expect(await runRestore([file, '--data', data], no)).toBe(1);
    expect(filesOf(data)).toEqual(before);

    const yes = terminal([
      [/\[y\/N\] $/, 'y\n'],
      [/Passphrase of the backup's secrets \(empty: restore without them\): $/, 'wrong passphrase\r'],
      [
        /passphrase does not open this backup's secrets.*\n.*Passphrase of the backup's secrets/,
        'typed passphrase\r',
      ],
    ]);
    expect(await runRestore([file, '--data', data], yes)).toBe(0);
    expect(readdirSync(join(data, 'replaced'))).toHaveLength(1);
    const store = openStore(join(data, 'tidings.db'));
    expect(store.getCredentials(store.listFeeds()[0]!.id)).toEqual({
      scheme: 'basic',
      username: 'u',
      password: 'p-1234567',
    });
    store.close();
    expect(existsSync(file)).toBe(true);
  });
});
