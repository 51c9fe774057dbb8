/**
 * Secrets sealed with a passphrase the person types: scrypt turns it into a key (slow on purpose,
 * so guessing passphrases of a stolen backup is slow too), AES-256-GCM encrypts and authenticates
 * (a wrong passphrase or a changed byte fails the tag check; nothing half-decrypted is used). The
 * backup's id is the additional data: a sealed box moved into another backup does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes, type ScryptOptions, scrypt } from 'node:crypto';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';

/** What a backup stores (base64 fields): everything needed to open it again but the passphrase. */
export interface SealedBox {
  kdf: 'scrypt';
  /** scrypt's cost parameters as used, so later Tidings can raise them and still open older boxes. */
  N: number;
  r: number;
  p: number;
  salt: string;
  cipher: 'aes-256-gcm';
  iv: string;
  tag: string;
  data: string;
}

/** 2^17 x 8: 128 MiB and about half a second per try (OWASP's scrypt advice). */
const DEFAULT_COST = { N: 2 ** 17, r: 8, p: 1 } as const;
/** The most memory a box may ask scrypt for: a crafted backup cannot make us allocate more. */
const MAX_SCRYPT_MEMORY = 256 * 1024 * 1024;
export const MIN_PASSPHRASE_LENGTH = 8;

function deriveKey(passphrase: string, salt: Buffer, cost: { N: number; r: number; p: number }) {
  const options: ScryptOptions = { ...cost, maxmem: MAX_SCRYPT_MEMORY };
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(passphrase.normalize('NFC'), salt, 32, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Why this passphrase cannot seal a backup, or null when it can. */
export function passphraseProblem(passphrase: string): string | null {
  return [...passphrase].length < MIN_PASSPHRASE_LENGTH
    ? `The passphrase needs at least ${MIN_PASSPHRASE_LENGTH} characters.`
    : null;
}

export async function seal(
  plaintext: Uint8Array,
  passphrase: string,
  aad: string,
  cost: { N: number; r: number; p: number } = DEFAULT_COST,
): Promise<SealedBox> {
  return startSealing(passphrase, aad, cost)(plaintext);
}

/**
 * Starts deriving the key at once (scrypt's half second, on libuv's threads) and returns what
 * seals with it once the plaintext is known: a backup starts it while it copies its databases,
 * which wait on the disk more than on a core.
 */
export function startSealing(
  passphrase: string,
  aad: string,
  cost: { N: number; r: number; p: number } = DEFAULT_COST,
): (plaintext: Uint8Array) => Promise<SealedBox> {
  const salt = randomBytes(16);
  const deriving = deriveKey(passphrase, salt, cost);
  deriving.catch(() => {}); // awaited when sealing; a failure meanwhile is not unhandled
  return async (plaintext) => {
    const key = await deriving;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return {
      kdf: 'scrypt',
      ...cost,
      salt: salt.toString('base64'),
      cipher: 'aes-256-gcm',
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
  };
}

export async function unseal(box: SealedBox, passphrase: string, aad: string): Promise<Result<Buffer>> {
  if (box.kdf !== 'scrypt' || box.cipher !== 'aes-256-gcm') {
    return fail(
      tidingsError(
        'backup.secretsUnknown',
        'The secrets in this backup are sealed in a way this Tidings does not know.',
      ),
    );
  }
  // A crafted box must not make us spend minutes: nothing we write asks for more than these.
  if (box.N > 2 ** 20 || box.r > 32 || box.p > 16) {
    return fail(
      tidingsError(
        'backup.damaged',
        "The backup's sealed secrets are damaged (their parameters are out of range).",
      ),
    );
  }
  let key: Buffer;
  try {
    key = await deriveKey(passphrase, Buffer.from(box.salt, 'base64'), { N: box.N, r: box.r, p: box.p });
  } catch {
    return fail(
      tidingsError(
        'backup.damaged',
        "The backup's sealed secrets are damaged (their parameters are not usable).",
      ),
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(box.iv, 'base64'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(box.tag, 'base64'));
    return ok(Buffer.concat([decipher.update(Buffer.from(box.data, 'base64')), decipher.final()]));
  } catch {
    return fail(
      tidingsError(
        'backup.wrongPassphrase',
        "That passphrase does not open this backup's secrets (check it and try again).",
      ),
    );
  }
}

export function isSealedBox(v: unknown): v is SealedBox {
  if (!v || typeof v !== 'object') return false;
  const b = v as Record<string, unknown>;
  return (
    typeof b.kdf === 'string' &&
    typeof b.cipher === 'string' &&
    [b.N, b.r, b.p].every((n) => Number.isInteger(n) && (n as number) > 0) &&
    [b.salt, b.iv, b.tag, b.data].every((s) => typeof s === 'string')
  );
}
