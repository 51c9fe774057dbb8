/** Saved searches (issue 9, NetNewsWire #217): a name, the query text and its scope, shown in the sidebar. */
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import type { StoreContext } from './context.ts';

export type SavedScope =
  | { kind: 'all' }
  | { kind: 'feed'; feedId: number }
  | { kind: 'folder'; folderId: number };

export interface SavedSearchRow {
  id: number;
  name: string;
  query: string;
  scope: SavedScope;
}

const MAX_NAME = 200;
const MAX_QUERY = 1000;

function parseScope(text: unknown): SavedScope {
  try {
    const v = JSON.parse(String(text)) as SavedScope;
    if (v.kind === 'feed' && Number.isSafeInteger(v.feedId)) return { kind: 'feed', feedId: v.feedId };
    if (v.kind === 'folder' && Number.isSafeInteger(v.folderId))
      return { kind: 'folder', folderId: v.folderId };
  } catch {
    // fall through: an unreadable scope searches everything
  }
  return { kind: 'all' };
}

export function normaliseScope(scope: SavedScope | null | undefined): SavedScope {
  return parseScope(JSON.stringify(scope ?? { kind: 'all' }));
}

type Raw = { id: number; name: string; query: string; scope: string };
const toRow = (r: Raw): SavedSearchRow => ({
  id: r.id,
  name: r.name,
  query: r.query,
  scope: parseScope(r.scope),
});

export function listSavedSearches(ctx: StoreContext): SavedSearchRow[] {
  return (
    ctx
      .stmt('SELECT id, name, query, scope FROM saved_searches ORDER BY name COLLATE NOCASE, id')
      .all() as Raw[]
  ).map(toRow);
}

export function saveSearch(
  ctx: StoreContext,
  input: { id?: number; name: string; query: string; scope?: SavedScope | null },
): Result<SavedSearchRow> {
  const name = (typeof input?.name === 'string' ? input.name : '').replace(/\s+/g, ' ').trim();
  const query = (typeof input?.query === 'string' ? input.query : '').trim();
  if (!name) return fail(tidingsError('savedSearch.name', 'A saved search needs a name.'));
  if (!query) return fail(tidingsError('savedSearch.query', 'A saved search needs something to search for.'));
  if (name.length > MAX_NAME || query.length > MAX_QUERY) {
    return fail(tidingsError('savedSearch.long', 'That name or search is too long.'));
  }
  const scope = JSON.stringify(normaliseScope(input.scope));
  let id: number;
  if (input.id !== undefined) {
    const changed = ctx
      .stmt('UPDATE saved_searches SET name = ?, query = ?, scope = ? WHERE id = ?')
      .run(name, query, scope, input.id).changes;
    if (Number(changed) === 0) {
      return fail(tidingsError('savedSearch.notFound', 'That saved search does not exist any more.'));
    }
    id = input.id;
  } else {
    id = (
      ctx
        .stmt('INSERT INTO saved_searches (name, query, scope, created_at) VALUES (?, ?, ?, ?) RETURNING id')
        .get(name, query, scope, ctx.clock.now()) as { id: number }
    ).id;
  }
  return ok(toRow(ctx.stmt('SELECT id, name, query, scope FROM saved_searches WHERE id = ?').get(id) as Raw));
}

export function deleteSavedSearch(ctx: StoreContext, id: number): boolean {
  return Number(ctx.stmt('DELETE FROM saved_searches WHERE id = ?').run(id).changes) > 0;
}
