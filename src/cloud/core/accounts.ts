/**
 * Accounts for rssCloud.saveRss, created by the operator (`tidings cloud user add NAME`).
 * Passwords are stored only as scrypt hashes ("scrypt$N$r$p$salt$hash", base64) and compared
 * in constant time; an unknown name costs the same scrypt as a wrong password, so timing does
 * not tell which names exist.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { fail, ok, type Result, tidingsError } from '../../common/errors.ts';
import type { CloudStore } from '../store/store.ts';

const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const MAX_PASSWORD_LENGTH = 1024;

function scryptAsync(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, { ...opts, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LENGTH, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, saltB64, keyB64] = stored.split('$');
  if (kind !== 'scrypt' || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, 'base64');
  const key = await scryptAsync(password, Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

// A hash of nothing in particular, checked when the name is unknown so both paths cost one scrypt.
let decoyHash: Promise<string> | null = null;

/** True only for an existing account with this password. */
export async function checkLogin(store: CloudStore, name: string, password: string): Promise<boolean> {
  const account = NAME_PATTERN.test(name) ? await store.getAccount(name) : undefined;
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  if (!account) {
    decoyHash ??= hashPassword(randomBytes(12).toString('base64'));
    await verifyPassword(password, await decoyHash);
    return false;
  }
  return verifyPassword(password, account.passwordHash);
}

export function validateAccountName(name: string): Result<string> {
  return NAME_PATTERN.test(name)
    ? ok(name)
    : fail(
        tidingsError(
          'cloud.badAccountName',
          `"${name.slice(0, 70)}" is not a usable account name: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit.`,
        ),
      );
}

export async function addAccount(
  store: CloudStore,
  name: string,
  password: string,
  now: number,
): Promise<Result<string>> {
  const valid = validateAccountName(name);
  if (!valid.ok) return valid;
  if (password.length === 0) return fail(tidingsError('cloud.emptyPassword', 'The password is empty.'));
  if (password.length > MAX_PASSWORD_LENGTH) {
    return fail(
      tidingsError('cloud.longPassword', `The password is longer than ${MAX_PASSWORD_LENGTH} characters.`),
    );
  }
  if (await store.getAccount(name)) {
    return fail(tidingsError('cloud.accountExists', `An account named "${name}" already exists.`, { name }));
  }
  await store.addAccount(name, await hashPassword(password), now);
  return ok(name);
}
