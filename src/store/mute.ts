/**
 * Mute filters (issue 9, NetNewsWire #1864): a keyword or a regular expression, for one feed or
 * all, that hides an arriving item or marks it read. Both record which filter matched on the
 * item (muted_by), so the item can say "muted by ..." and the person can undo it. Hidden items
 * are also marked read so no unread count includes what nobody sees.
 */
import { RE2JS } from 're2js';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import type { Item } from '../feed/model.ts';
import type { StoreContext } from './context.ts';
import { htmlToText } from './html-text.ts';
import { transaction } from './sqlite.ts';
import type { MutedByRow } from './types.ts';

export type MuteKind = 'keyword' | 'regex';
export type MuteAction = 'hide' | 'markRead';

export interface MuteFilterRow {
  id: number;
  feedId: number | null;
  kind: MuteKind;
  pattern: string;
  action: MuteAction;
  createdAt: number;
}

export interface MuteFilterFields {
  feedId?: number | null;
  kind: MuteKind;
  pattern: string;
  action: MuteAction;
}

const MAX_PATTERN = 500;
/** The text a filter looks at is cut here: bounds the work of a costly regular expression. */
const MAX_TEXT = 20_000;

type Raw = {
  id: number;
  feed_id: number | null;
  kind: MuteKind;
  pattern: string;
  action: MuteAction;
  created_at: number;
};
const toRow = (r: Raw): MuteFilterRow => ({
  id: r.id,
  feedId: r.feed_id,
  kind: r.kind,
  pattern: r.pattern,
  action: r.action,
  createdAt: r.created_at,
});

/** What a filter tests an item's text with. */
export interface MuteMatcher {
  test(text: string): boolean;
}

/**
 * The matcher for a filter, or a readable error for a pattern that cannot be one.
 *
 * A regular expression runs over text that feeds wrote: with a backtracking engine, a pattern
 * such as `(a+)+$` and an item of 50,000 a's would hold the app for minutes. So patterns run on
 * RE2's engine (re2js), linear in the text for every pattern; the price is that look-arounds
 * and back-references, which need backtracking, are refused when the filter is made. A keyword
 * is escaped by us into a pattern with no nested repetition, so JavaScript's engine is safe there.
 */
export function compileFilter(kind: MuteKind, pattern: string): Result<MuteMatcher> {
  const p = (pattern ?? '').trim();
  if (!p) return fail(tidingsError('mute.empty', 'A mute filter needs a word or a pattern.'));
  if (p.length > MAX_PATTERN) {
    return fail(tidingsError('mute.long', `A mute filter is at most ${MAX_PATTERN} characters.`));
  }
  if (kind === 'keyword') {
    const escaped = p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Whole words, so 'art' does not mute 'party'; letters of any script count as word letters.
    return ok(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu'));
  }
  try {
    const re = RE2JS.compile(p, RE2JS.CASE_INSENSITIVE);
    return ok({ test: (text) => re.matcher(text).find() });
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).replace(/^error parsing regexp: /, '');
    const backtracking = /\(\?<?[=!]|\\[1-9]|\\k</.test(p);
    return fail(
      tidingsError(
        'mute.badRegex',
        backtracking
          ? 'That regular expression uses a look-around or a back-reference, which mute filters do not support: they could let a feed hold the app. Try a pattern without them.'
          : `That regular expression does not work: ${why}`,
        { why },
      ),
    );
  }
}

function validate(ctx: StoreContext, input: MuteFilterFields): Result<MuteFilterFields> {
  if (input.kind !== 'keyword' && input.kind !== 'regex') {
    return fail(tidingsError('mute.kind', 'A mute filter is a keyword or a regular expression.'));
  }
  if (input.action !== 'hide' && input.action !== 'markRead') {
    return fail(tidingsError('mute.action', 'A mute filter hides items or marks them read.'));
  }
  const feedId = input.feedId ?? null;
  if (feedId !== null && !ctx.stmt('SELECT 1 FROM feeds WHERE id = ?').get(feedId)) {
    return fail(tidingsError('mute.noFeed', 'That feed is not subscribed any more.'));
  }
  const re = compileFilter(input.kind, input.pattern);
  if (!re.ok) return re;
  return ok({ feedId, kind: input.kind, pattern: input.pattern.trim(), action: input.action });
}

export function listMuteFilters(ctx: StoreContext): MuteFilterRow[] {
  return (
    ctx
      .stmt('SELECT id, feed_id, kind, pattern, action, created_at FROM mute_filters ORDER BY id')
      .all() as Raw[]
  ).map(toRow);
}

function getMuteFilter(ctx: StoreContext, id: number): MuteFilterRow | null {
  const r = ctx
    .stmt('SELECT id, feed_id, kind, pattern, action, created_at FROM mute_filters WHERE id = ?')
    .get(id) as Raw | undefined;
  return r ? toRow(r) : null;
}

export function addMuteFilter(ctx: StoreContext, input: MuteFilterFields): Result<MuteFilterRow> {
  const v = validate(ctx, input);
  if (!v.ok) return v;
  const { id } = ctx
    .stmt(
      'INSERT INTO mute_filters (feed_id, kind, pattern, action, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
    )
    .get(v.value.feedId ?? null, v.value.kind, v.value.pattern, v.value.action, ctx.clock.now()) as {
    id: number;
  };
  return ok(getMuteFilter(ctx, id)!);
}

export function updateMuteFilter(
  ctx: StoreContext,
  id: number,
  input: MuteFilterFields,
): Result<MuteFilterRow> {
  const v = validate(ctx, input);
  if (!v.ok) return v;
  const changed = ctx
    .stmt('UPDATE mute_filters SET feed_id = ?, kind = ?, pattern = ?, action = ? WHERE id = ?')
    .run(v.value.feedId ?? null, v.value.kind, v.value.pattern, v.value.action, id).changes;
  if (Number(changed) === 0)
    return fail(tidingsError('mute.notFound', 'That mute filter does not exist any more.'));
  return ok(getMuteFilter(ctx, id)!);
}

/** Items it muted stay as they are (read, and hidden if it hid them) until unmuted one by one. */
export function deleteMuteFilter(ctx: StoreContext, id: number): boolean {
  return Number(ctx.stmt('DELETE FROM mute_filters WHERE id = ?').run(id).changes) > 0;
}

/** The text a filter is tested against: title, body text and categories. */
export function muteText(item: Item): string {
  const parts = [item.title ?? '', htmlToText(item.summary), htmlToText(item.content)];
  for (const c of item.categories) parts.push(c.term);
  return parts.join('\n').slice(0, MAX_TEXT);
}

/** Called inside the upsert's transaction for items seen for the first time; the ids it muted. */
export function applyMuteFilters(
  ctx: StoreContext,
  feedId: number,
  fresh: readonly { id: number; item: Item }[],
): number[] {
  const filters = (
    ctx
      .stmt(
        'SELECT id, feed_id, kind, pattern, action, created_at FROM mute_filters WHERE feed_id IS NULL OR feed_id = ? ORDER BY id',
      )
      .all(feedId) as Raw[]
  ).map(toRow);
  if (filters.length === 0) return [];
  const compiled: { row: MuteFilterRow; re: MuteMatcher }[] = [];
  for (const row of filters) {
    const re = compileFilter(row.kind, row.pattern);
    if (re.ok) compiled.push({ row, re: re.value });
  }
  const muted: number[] = [];
  const mark = ctx.stmt('UPDATE items SET read = 1, muted_by = ?, muted_hide = ? WHERE id = ?');
  for (const { id, item } of fresh) {
    const text = muteText(item);
    // 'hide' wins over 'markRead' when both match: the stronger wish.
    const hit =
      compiled.find((c) => c.row.action === 'hide' && c.re.test(text)) ??
      compiled.find((c) => c.row.action === 'markRead' && c.re.test(text));
    if (!hit) continue;
    const by: MutedByRow = { filterId: hit.row.id, pattern: hit.row.pattern, action: hit.row.action };
    mark.run(JSON.stringify(by), hit.row.action === 'hide' ? 1 : 0, id);
    muted.push(id);
  }
  return muted;
}

/** Undo: the item shows again, unread (the filter had marked it read). False when not muted. */
export function unmuteItem(ctx: StoreContext, itemId: number): boolean {
  return transaction(ctx.db, () => {
    const changed = ctx
      .stmt(
        'UPDATE items SET muted_by = NULL, muted_hide = 0, read = 0 WHERE id = ? AND muted_by IS NOT NULL',
      )
      .run(itemId).changes;
    return Number(changed) > 0;
  });
}
