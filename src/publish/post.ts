/**
 * The writer's model: what a post is once accepted. One model, several writers (RSS, Atom,
 * JSON Feed, HTML). Input from the composer, the CLI or the API is checked here, with a readable
 * reason for anything refused; nothing about the network lives here (enclosure.ts looks up types).
 */

import type { PostInput } from '../app/api.ts';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { countGraphemes } from './graphemes.ts';
import { cleanText } from './text.ts';

/** An enclosure as stored: a remote URL, or a file we host (its name under the media folder). */
export interface StoredEnclosure {
  url: string | null;
  /** Name of the hosted copy (content hash + extension), when the user gave a file. */
  file: string | null;
  type: string;
  length: number;
}

export interface PostContent {
  text: string;
  link: string | null;
  enclosure: StoredEnclosure | null;
  tags: string[];
  children: PostContent[];
}

export interface StoredPost extends PostContent {
  id: number;
  guid: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
  /** Bumped by every edit: tasks belong to one revision. */
  rev: number;
}

export const MAX_TAGS = 20;
export const MAX_DEPTH = 16;
export const MAX_CHILDREN = 200;
const MAX_LINK_CHARS = 16_384;

/**
 * Checks and cleans a post's input (not its enclosure, which enclosure.ts resolves). Every level
 * of the outline keeps to the limit.
 */
export function checkPostInput(
  input: PostInput,
  charLimit: number,
  depth = 0,
): Result<Omit<PostContent, 'enclosure' | 'children'> & { children: PostInput[] }> {
  if (!input || typeof input !== 'object' || typeof input.text !== 'string') {
    return fail(tidingsError('post.invalid', 'A post needs its text as a string.'));
  }
  const text = cleanText(input.text);
  if (text.length === 0) return fail(tidingsError('post.empty', 'A post needs some text.'));
  const n = countGraphemes(text);
  if (n > charLimit) {
    return fail(
      tidingsError(
        'post.tooLong',
        `The post is ${n} characters; the limit is ${charLimit} (${n - charLimit} over).`,
        { count: n, limit: charLimit },
      ),
    );
  }
  const link = checkLink(input.link);
  if (!link.ok) return link;
  const tags = checkTags(input.tags);
  if (!tags.ok) return tags;
  const children = input.children ?? [];
  if (!Array.isArray(children))
    return fail(tidingsError('post.invalid', 'children must be a list of posts.'));
  if (children.length > MAX_CHILDREN) {
    return fail(tidingsError('post.tooMany', `A post holds at most ${MAX_CHILDREN} sub-items.`));
  }
  if (children.length > 0 && depth >= MAX_DEPTH) {
    return fail(tidingsError('post.tooDeep', `Sub-items nest at most ${MAX_DEPTH} deep.`));
  }
  return ok({ text, link: link.value, tags: tags.value, children });
}

function checkLink(link: string | null | undefined): Result<string | null> {
  if (link === null || link === undefined || link.trim() === '') return ok(null);
  if (typeof link !== 'string') return fail(tidingsError('post.badLink', 'The link must be a URL.'));
  if (link.length > MAX_LINK_CHARS) {
    return fail(tidingsError('post.badLink', `The link is longer than ${MAX_LINK_CHARS} characters.`));
  }
  const url = httpUrl(link.trim());
  if (!url)
    return fail(tidingsError('post.badLink', `The link must be an http(s) address, not "${short(link)}".`));
  return ok(url);
}

function checkTags(tags: string[] | undefined): Result<string[]> {
  if (tags === undefined || tags === null) return ok([]);
  if (!Array.isArray(tags)) return fail(tidingsError('post.badTags', 'Tags must be a list of words.'));
  const out: string[] = [];
  for (const t of tags) {
    if (typeof t !== 'string') return fail(tidingsError('post.badTags', 'Each tag must be text.'));
    // One line each: a tag is a <category>, and "a|b" is how extendedPing joins them.
    const clean = cleanText(t).replace(/\s+/g, ' ');
    if (clean && !out.includes(clean)) out.push(clean);
  }
  if (out.length > MAX_TAGS) return fail(tidingsError('post.badTags', `At most ${MAX_TAGS} tags per post.`));
  return ok(out);
}

/** The URL as the parser will read it back (normalised by URL), or null when not http(s). */
export function httpUrl(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const short = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);
