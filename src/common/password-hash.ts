/**
 * Slow password hashes: scrypt from node:crypto, stored as "scrypt$N$r$p$salt$hash" (base64),
 * compared in constant time. One helper for every password Tidings keeps (the cloud's saveRss
 * accounts, the sync APIs' app password), so the parameters and the format live in one place.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

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

// A hash of nothing in particular: checking it when there is no account costs the same scrypt as
// a wrong password, so timing does not tell whether an account exists.
let decoyHash: Promise<string> | null = null;

/** Spends one scrypt on nothing and answers false (an unknown name, no password set). */
export async function decoyVerify(password: string): Promise<false> {
  decoyHash ??= hashPassword(randomBytes(12).toString('base64'));
  await verifyPassword(password, await decoyHash);
  return false;
}
