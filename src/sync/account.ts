/**
 * The app password that phone apps log in with (issue 32), and the logins made with it.
 *
 * What is kept (src/store/sync-account.ts), and why:
 * - the password only as a slow hash (scrypt, src/common/password-hash.ts): Google Reader's
 *   ClientLogin sends it, and we check it;
 * - Fever sends no password but `api_key` = md5("user:password") on every call, so the key is a
 *   password of its own: it is kept as a slow hash too (scrypt of the key), never the key nor the
 *   md5. Checking a key costs one scrypt, so a key that passed is remembered in memory (as its
 *   SHA-256) until the password changes or the app stops; later calls cost a hash lookup;
 * - each Google Reader login as the SHA-256 of its token (the token is 256 random bits, so a fast
 *   hash is enough): a stolen database holds no usable token. A new password or a revoke deletes
 *   them all, which ends every login made with the old password.
 * Everything a backup must not carry in clear is named in src/backup/secret-columns.ts.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../common/clock.ts';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { decoyVerify, hashPassword, verifyPassword } from '../common/password-hash.ts';
import type { SyncStore } from '../store/sync.ts';
import { LoginGuard, type LoginLimits } from './login-guard.ts';

const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,63}$/;
/** No 0/o, 1/l/i: the password is typed on a phone. 20 characters of 31: 99 bits. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const MAX_PASSWORD_LENGTH = 1024;
/** Logins kept (a client that logs in at every sync must not grow the table without end). */
const MAX_SESSIONS = 100;
/** A login's last use is written at most this often (not once per call). */
const TOUCH_EVERY_MS = 60_000;

export type LoginOutcome =
  | { ok: true; token: string }
  | { ok: false; reason: 'wrong' }
  | { ok: false; reason: 'limited'; retryAfterSec: number };

export type KeyOutcome = 'ok' | 'wrong' | { limited: number };

export interface SyncAccountState {
  enabled: boolean;
  userName: string | null;
  hasPassword: boolean;
  passwordSetAt: number | null;
  /** Logins alive (Google Reader clients; Fever has none: it sends its key each time). */
  logins: number;
  lastUsedAt: number | null;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

export function generatePassword(): string {
  let out = '';
  for (let i = 0; i < 20; i++) {
    if (i > 0 && i % 5 === 0) out += '-';
    out += ALPHABET[randomInt(ALPHABET.length)];
  }
  return out;
}

/** Fever's api_key for a user name and password: md5 of "user:password", lowercase hex. */
export const feverKeyOf = (userName: string, password: string): string => md5(`${userName}:${password}`);

export function validateUserName(name: string): Result<string> {
  const n = typeof name === 'string' ? name.trim() : '';
  return USER_NAME.test(n)
    ? ok(n)
    : fail(
        tidingsError(
          'sync.badUserName',
          'A user name is 1 to 64 letters, digits, ".", "_", "@", "+" or "-", starting with a letter or digit.',
        ),
      );
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(sha256(a));
  const y = Buffer.from(sha256(b));
  return timingSafeEqual(x, y);
}

export class SyncAccount {
  private readonly store: SyncStore;
  private readonly clock: Pick<Clock, 'now'>;
  private readonly guard: LoginGuard;
  /** SHA-256 of Fever keys that passed, for this password only. */
  private readonly feverKeysOk = new Set<string>();
  private readonly touched = new Map<string, number>();
  private generation = 0;

  constructor(deps: { store: SyncStore; clock: Pick<Clock, 'now'>; limits?: Partial<LoginLimits> }) {
    this.store = deps.store;
    this.clock = deps.clock;
    this.guard = new LoginGuard(deps.clock, deps.limits);
  }

  state(): SyncAccountState {
    const a = this.store.account();
    const s = this.store.sessionStats();
    return {
      enabled: a.enabled,
      userName: a.userName,
      hasPassword: a.passwordHash !== null,
      passwordSetAt: a.passwordSetAt,
      logins: s.count,
      lastUsedAt: s.lastUsedAt,
    };
  }

  enabled(): boolean {
    return this.store.account().enabled;
  }

  userName(): string | null {
    return this.store.account().userName;
  }

  setEnabled(enabled: boolean): void {
    this.store.setEnabled(enabled);
  }

  /** A new app password for this user name, returned once; every login made before ends. */
  async newPassword(userName: string): Promise<Result<string>> {
    const name = validateUserName(userName);
    if (!name.ok) return name;
    const password = generatePassword();
    const [passwordHash, feverKeyHash] = await Promise.all([
      hashPassword(password),
      hashPassword(feverKeyOf(name.value, password)),
    ]);
    this.forget();
    this.store.setCredentials({ userName: name.value, passwordHash, feverKeyHash, at: this.clock.now() });
    return ok(password);
  }

  /** No password any more: no login works until a new one is made; every login made ends. */
  revoke(): void {
    this.forget();
    const a = this.store.account();
    this.store.setCredentials({ userName: a.userName, passwordHash: null, feverKeyHash: null, at: null });
  }

  /** Google Reader's ClientLogin: the user name and the app password, for a session token. */
  async login(userName: string, password: string, caller: string): Promise<LoginOutcome> {
    const spend = this.guard.attempt(caller);
    if (!spend.ok) return { ok: false, reason: 'limited', retryAfterSec: spend.retryAfterSec };
    const gen = this.generation;
    const a = this.store.account();
    const nameOk = a.userName !== null && sameText(a.userName.toLowerCase(), userName.trim().toLowerCase());
    const passwordOk =
      a.passwordHash !== null && nameOk && password.length <= MAX_PASSWORD_LENGTH
        ? await verifyPassword(password, a.passwordHash)
        : await decoyVerify(password.slice(0, MAX_PASSWORD_LENGTH));
    // A password replaced while this one was being checked does not open a session.
    if (!passwordOk || gen !== this.generation) return { ok: false, reason: 'wrong' };
    const token = `${a.userName}/${randomBytes(32).toString('hex')}`;
    const now = this.clock.now();
    this.store.addSession(sha256(token), 'greader', now);
    this.store.trimSessions(MAX_SESSIONS);
    return { ok: true, token };
  }

  /** Whether a Google Reader session token is alive (a hash lookup: no scrypt, no rate limit). */
  checkToken(token: string): boolean {
    if (!token || token.length > 512) return false;
    const hash = sha256(token.trim());
    if (!this.store.hasSession(hash)) return false;
    const now = this.clock.now();
    if (now - (this.touched.get(hash) ?? 0) >= TOUCH_EVERY_MS) {
      this.touched.set(hash, now);
      this.store.touchSession(hash, now);
    }
    return true;
  }

  /** Fever's api_key: one scrypt the first time a key is seen, a hash lookup after it passed. */
  async checkFeverKey(apiKey: string, caller: string): Promise<KeyOutcome> {
    const key = apiKey.trim().toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(key)) return 'wrong';
    const hash = sha256(key);
    if (this.feverKeysOk.has(hash)) return 'ok';
    const spend = this.guard.attempt(caller);
    if (!spend.ok) return { limited: spend.retryAfterSec };
    const gen = this.generation;
    const a = this.store.account();
    const passed =
      a.feverKeyHash !== null ? await verifyPassword(key, a.feverKeyHash) : await decoyVerify(key);
    if (!passed || gen !== this.generation) return 'wrong';
    this.feverKeysOk.add(hash);
    return 'ok';
  }

  private forget(): void {
    this.generation++;
    this.feverKeysOk.clear();
    this.touched.clear();
  }
}
