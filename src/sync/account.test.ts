/**
 * The app password's account (issue 32): what is kept is never the password nor the Fever key,
 * only slow hashes, in the columns the backup's list of secrets names; a new password ends every login.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_COLUMNS as BACKUP_SECRETS } from '../backup/secret-columns.ts';
import { ManualClock } from '../common/clock.ts';
import { openStore, type Store } from '../store/store.ts';
import { type TempDir, tempDir } from '../store/test-support.ts';
import { feverKeyOf, generatePassword, SyncAccount, validateUserName } from './account.ts';

/** The sync tables' columns that the backup's one list of secrets names. */
const SECRET_COLUMNS: Record<string, string[]> = {};
for (const s of BACKUP_SECRETS.filter((c) => c.table.startsWith('sync_'))) {
  SECRET_COLUMNS[s.table] = [...(SECRET_COLUMNS[s.table] ?? []), s.column];
}

let dir: TempDir;
let store: Store;
beforeEach(() => {
  dir = tempDir('tidings-sync-account-');
  store = openStore(dir.file('tidings.db'));
});
afterEach(() => {
  store.close();
  dir.remove();
});

describe('the sync account', () => {
  it('keeps neither the password nor its Fever key anywhere in the database files', async () => {
    const account = new SyncAccount({ store: store.sync, clock: new ManualClock(1_000) });
    const made = await account.newPassword('reader');
    if (!made.ok) throw new Error(made.error.message);
    const password = made.value;
    const key = feverKeyOf('reader', password);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    const login = await account.login('reader', password, '127.0.0.1');
    if (!login.ok) throw new Error('login failed');
    expect(await account.checkFeverKey(key, '127.0.0.1')).toBe('ok');
    expect(account.checkToken(login.token)).toBe(true);
    // Every byte of the database and its WAL: no password, no key, no token.
    for (const file of readdirSync(dir.path)) {
      const bytes = readFileSync(dir.file(file)).toString('latin1');
      for (const secret of [password, key, login.token.split('/')[1]!]) expect(bytes).not.toContain(secret);
    }
    // What is there: scrypt hashes, in the columns a backup is told are secret.
    const row = store.db.prepare('SELECT * FROM sync_account').get() as Record<string, unknown>;
    for (const column of SECRET_COLUMNS.sync_account!)
      expect(String(row[column])).toMatch(/^scrypt\$16384\$8\$1\$/);
    const session = store.db.prepare('SELECT * FROM sync_sessions').get() as Record<string, unknown>;
    for (const column of SECRET_COLUMNS.sync_sessions!)
      expect(String(session[column])).toMatch(/^[0-9a-f]{64}$/);
  });

  it('every secret column it names exists in the schema', () => {
    for (const [table, columns] of Object.entries(SECRET_COLUMNS)) {
      const names = (store.db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map(
        (c) => c.name,
      );
      for (const column of columns) expect(names).toContain(column);
    }
  });

  it('a new password ends the logins and the Fever key of the old one', async () => {
    const account = new SyncAccount({ store: store.sync, clock: new ManualClock(1_000) });
    const first = await account.newPassword('reader');
    if (!first.ok) throw new Error('no password');
    const login = await account.login('Reader', first.value, 'a'); // the name is not case-sensitive
    if (!login.ok) throw new Error('login failed');
    expect(await account.checkFeverKey(feverKeyOf('reader', first.value), 'a')).toBe('ok');
    await account.newPassword('reader');
    expect(account.checkToken(login.token)).toBe(false);
    expect(await account.checkFeverKey(feverKeyOf('reader', first.value), 'a')).toBe('wrong');
    expect((await account.login('reader', first.value, 'a')).ok).toBe(false);
  });

  it('makes passwords of 20 unambiguous characters and refuses unusable user names', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const p = generatePassword();
      expect(p).toMatch(/^[a-hj-km-np-z2-9]{5}(-[a-hj-km-np-z2-9]{5}){3}$/);
      seen.add(p);
    }
    expect(seen.size).toBe(50);
    expect(validateUserName('me@example.org').ok).toBe(true);
    expect(validateUserName('').ok).toBe(false);
    expect(validateUserName('has space').ok).toBe(false);
    expect(validateUserName('x'.repeat(65)).ok).toBe(false);
  });
});
