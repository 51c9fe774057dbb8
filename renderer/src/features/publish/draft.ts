/**
 * The composer's form state and its translation to and from the API's PostInput / PostView.
 * Pure functions (no React, no DOM) so the rules are tested on their own: what a post sends,
 * what a draft keeps, and why Post is refused.
 */
import type { PostInput, PostView } from '../../../../src/app/api';
import { countGraphemes, textProblem } from '../../../../src/publish/graphemes';

/** A dropped or picked local file, read as base64 so it crosses IPC/HTTP as JSON. */
export interface DroppedFile {
  fileName: string;
  dataBase64: string;
  /** Bytes, for the label only. */
  size: number;
  /** The browser's guess from the name ("image/png"), for a preview only; the core decides the type. */
  type?: string;
}

export interface ChildDraft {
  /** Local key for React lists; never sent. */
  key: number;
  text: string;
  children: ChildDraft[];
}

export interface ComposerDraft {
  text: string;
  link: string;
  /** An enclosure URL (the core fills type and length by HEAD) ... */
  enclosureUrl: string;
  /** ... or a local file the core copies into its data and hosts; the file wins when both are set. */
  enclosureFile: DroppedFile | null;
  /** Comma-separated, as typed. */
  tags: string;
  children: ChildDraft[];
}

let nextKey = 1;
export const newChild = (text = ''): ChildDraft => ({ key: nextKey++, text, children: [] });

export const emptyDraft = (): ComposerDraft => ({
  text: '',
  link: '',
  enclosureUrl: '',
  enclosureFile: null,
  tags: '',
  children: [],
});

/** "a, b ,,c" -> ["a", "b", "c"], duplicates dropped (case kept as first typed). */
export function parseTags(typed: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of typed.split(',')) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

function childrenToInput(children: ChildDraft[]): PostInput[] {
  // An empty sub-item is a row the writer added and left blank: not content.
  return children
    .filter((c) => c.text.trim() !== '' || c.children.length > 0)
    .map((c) => ({ text: c.text, children: childrenToInput(c.children) }));
}

/** What Post sends. */
export function toPostInput(draft: ComposerDraft): PostInput {
  const link = draft.link.trim();
  const url = draft.enclosureUrl.trim();
  const file = draft.enclosureFile;
  return {
    text: draft.text,
    link: link === '' ? null : link,
    enclosure: file ? { fileName: file.fileName, dataBase64: file.dataBase64 } : url !== '' ? { url } : null,
    tags: parseTags(draft.tags),
    children: childrenToInput(draft.children),
  };
}

/** Files up to this size ride along in the saved draft; larger ones are sent only with Post. */
export const DRAFT_FILE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * What the draft keeps: the same as Post would send, minus a large attached file (the draft is
 * saved again at every pause in typing; megabytes each time would make typing slow).
 */
export function toDraftInput(draft: ComposerDraft): PostInput | null {
  if (isEmpty(draft)) return null;
  const input = toPostInput(draft);
  if (draft.enclosureFile && draft.enclosureFile.size > DRAFT_FILE_MAX_BYTES) input.enclosure = null;
  return input;
}

function childrenFromInput(children: PostInput[] | undefined): ChildDraft[] {
  return (children ?? []).map((c) => ({ ...newChild(c.text), children: childrenFromInput(c.children) }));
}

/** A saved draft back into the form. */
export function fromPostInput(input: PostInput): ComposerDraft {
  const e = input.enclosure ?? null;
  return {
    text: input.text ?? '',
    link: input.link ?? '',
    enclosureUrl: e?.url ?? '',
    enclosureFile:
      e?.dataBase64 && e.fileName
        ? { fileName: e.fileName, dataBase64: e.dataBase64, size: base64Bytes(e.dataBase64) }
        : null,
    tags: (input.tags ?? []).join(', '),
    children: childrenFromInput(input.children),
  };
}

function childrenFromView(children: PostView[]): ChildDraft[] {
  return children.map((c) => ({ ...newChild(c.text), children: childrenFromView(c.children) }));
}

/** A published post into the form, for editing: its enclosure is kept by URL (already hosted). */
export function fromPostView(post: PostView): ComposerDraft {
  return {
    text: post.text,
    link: post.link ?? '',
    enclosureUrl: post.enclosure?.url ?? '',
    enclosureFile: null,
    tags: post.tags.join(', '),
    children: childrenFromView(post.children),
  };
}

export function isEmpty(draft: ComposerDraft): boolean {
  return (
    draft.text === '' &&
    draft.link === '' &&
    draft.enclosureUrl === '' &&
    draft.enclosureFile === null &&
    draft.tags === '' &&
    draft.children.length === 0
  );
}

/** Why Post is refused (the post's own text, then each sub-item's), or null. */
export function draftProblem(draft: ComposerDraft, limit: number): string | null {
  const own = textProblem(draft.text, limit);
  if (own) return own;
  const walk = (children: ChildDraft[], path: string): string | null => {
    for (const [i, c] of children.entries()) {
      const where = `${path}${i + 1}`;
      const n = countGraphemes(c.text);
      if (n > limit)
        return `Sub-item ${where} is ${n} characters; the limit is ${limit} (${n - limit} over).`;
      const deeper = walk(c.children, `${where}.`);
      if (deeper) return deeper;
    }
    return null;
  };
  return walk(draft.children, '');
}

/** Decoded size of a base64 string, without decoding it. */
export function base64Bytes(b64: string): number {
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((b64.length * 3) / 4) - pad);
}

/** 1536 -> "1.5 KB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Child list edits, by path of indexes from the top ([] is the post itself). */
export function updateChildren(
  children: ChildDraft[],
  path: number[],
  change: (list: ChildDraft[]) => ChildDraft[],
): ChildDraft[] {
  if (path.length === 0) return change(children);
  const [head, ...rest] = path;
  return children.map((c, i) =>
    i === head ? { ...c, children: updateChildren(c.children, rest, change) } : c,
  );
}
