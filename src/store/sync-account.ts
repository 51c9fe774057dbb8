/**
 * The sync APIs' account (issue 32): one row, whether the APIs answer, the user name, slow hashes
 * of the app password and of its Fever key, and the logins made with it (hashes of their tokens).
 * What the hashes are and how they are checked is src/sync/account.ts's business; this module
 * only keeps them. A new password or a revoke ends every login (the sessions go with it).
 */
import type { StoreContext } from './context.ts';
import { transaction } from './sqlite.ts';

export interface SyncAccountRow {
  enabled: boolean;
  userName: string | null;
  passwordHash: string | null;
  feverKeyHash: string | null;
  /** ms since epoch; null while no password was made. */
  passwordSetAt: number | null;
}

export type SyncApiName = 'greader' | 'fever';

const EMPTY: SyncAccountRow = {
  enabled: false,
  userName: null,
  passwordHash: null,
  feverKeyHash: null,
  passwordSetAt: null,
};

export function getSyncAccount(ctx: StoreContext): SyncAccountRow {
  const r = ctx
    .stmt(
      'SELECT enabled, user_name, password_hash, fever_key_hash, password_set_at FROM sync_account WHERE id = 1',
    )
    .get() as
    | {
        enabled: number;
        user_name: string | null;
        password_hash: string | null;
        fever_key_hash: string | null;
        password_set_at: number | null;
      }
    | undefined;
  if (!r) return EMPTY;
  return {
    enabled: r.enabled === 1,
    userName: r.user_name,
    passwordHash: r.password_hash,
    feverKeyHash: r.fever_key_hash,
    passwordSetAt: r.password_set_at,
  };
}

export function setSyncEnabled(ctx: StoreContext, enabled: boolean): void {
  ctx
    .stmt('INSERT INTO sync_account (id, enabled) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET enabled = ?1')
    .run(enabled ? 1 : 0);
}

/** A new password (or none: a revoke) for this user name; every login made before ends. */
export function setSyncCredentials(
  ctx: StoreContext,
  creds: {
    userName: string | null;
    passwordHash: string | null;
    feverKeyHash: string | null;
    at: number | null;
  },
): void {
  transaction(ctx.db, () => {
    ctx
      .stmt(
        `INSERT INTO sync_account (id, user_name, password_hash, fever_key_hash, password_set_at)
         VALUES (1, ?1, ?2, ?3, ?4)
         ON CONFLICT (id) DO UPDATE SET user_name = ?1, password_hash = ?2, fever_key_hash = ?3, password_set_at = ?4`,
      )
      .run(creds.userName, creds.passwordHash, creds.feverKeyHash, creds.at);
    ctx.stmt('DELETE FROM sync_sessions').run();
  });
}

export function addSyncSession(ctx: StoreContext, tokenHash: string, api: SyncApiName, at: number): void {
  ctx
    .stmt(
      'INSERT OR REPLACE INTO sync_sessions (token_hash, api, created_at, last_used_at) VALUES (?, ?, ?, ?)',
    )
    .run(tokenHash, api, at, at);
}

/** Whether a login with this token hash is alive. */
export function hasSyncSession(ctx: StoreContext, tokenHash: string): boolean {
  return ctx.stmt('SELECT 1 FROM sync_sessions WHERE token_hash = ?').get(tokenHash) !== undefined;
}

export function touchSyncSession(ctx: StoreContext, tokenHash: string, at: number): void {
  ctx.stmt('UPDATE sync_sessions SET last_used_at = ? WHERE token_hash = ?').run(at, tokenHash);
}

export function syncSessionStats(ctx: StoreContext): { count: number; lastUsedAt: number | null } {
  const r = ctx.stmt('SELECT COUNT(*) AS n, MAX(last_used_at) AS last FROM sync_sessions').get() as {
    n: number;
    last: number | null;
  };
  return { count: r.n, lastUsedAt: r.last };
}

/** Keeps the newest `keep` logins (a phone that logs in at every sync must not grow the table). */
export function trimSyncSessions(ctx: StoreContext, keep: number): void {
  ctx
    .stmt(
      `DELETE FROM sync_sessions WHERE token_hash NOT IN
       (SELECT token_hash FROM sync_sessions ORDER BY last_used_at DESC LIMIT ?)`,
    )
    .run(keep);
}
