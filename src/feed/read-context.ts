import type { Deadline } from './deadline.ts';

/** What every format reader needs besides the document. */
export interface ReadContext {
  /** The URL the document came from (ParseOptions.url): the last base for relative URLs. */
  url: string | null;
  deadline: Deadline;
}

/** How often readers look at the clock while walking items. */
export const ITEMS_PER_CLOCK_CHECK = 64;
