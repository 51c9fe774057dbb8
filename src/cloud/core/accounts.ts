/**
 * Accounts for rssCloud.saveRss, created by the operator (`tidings cloud user add NAME`).
 * Passwords are stored only as scrypt hashes (src/common/password-hash.ts) and compared in
 * constant time; an unknown name costs the same scrypt as a wrong password, so timing does not
 * tell which names exist.
 */
import { fail, ok, type Result, tidingsError } from '../../common/errors.ts';
import { decoyVerify, hashPassword, verifyPassword } from '../../common/password-hash.ts';
import type { CloudStore } from '../store/store.ts';

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const MAX_PASSWORD_LENGTH = 1024;

/** True only for an existing account with this password. */
export async function checkLogin(store: CloudStore, name: string, password: string): Promise<boolean> {
  const account = NAME_PATTERN.test(name) ? await store.getAccount(name) : undefined;
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  if (!account) return decoyVerify(password);
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
