/**
 * The parser on a worker thread (parse-pool.ts starts it): one document at a time (a feed, or an
 * OPML list to import), the answer posted back. A cause that cannot cross threads (structured
 * clone) is dropped, never the answer.
 */
import { parentPort } from 'node:worker_threads';
import type { Result } from '../common/errors.ts';
import { type OpmlDocument, parseOpml } from './opml.ts';
import { parseFeed } from './parse.ts';
import type { ParseOptions, ParseResult } from './parse-types.ts';

export type ParseJob =
  | { id: number; kind?: 'feed'; body: Uint8Array; options: ParseOptions }
  | { id: number; kind: 'opml'; text: string };

export interface ParseAnswer {
  id: number;
  result: ParseResult | Result<OpmlDocument>;
}

const port = parentPort;
if (port) {
  port.on('message', (job: ParseJob) => {
    if (job.kind === 'opml') {
      port.postMessage({ id: job.id, result: parseOpml(job.text) } satisfies ParseAnswer);
      return;
    }
    let result: ParseResult;
    try {
      result = parseFeed(job.body, job.options);
    } catch (e) {
      result = {
        kind: 'error',
        error: { code: 'feed.parseFailed', message: `The document could not be read: ${String(e)}` },
      };
    }
    try {
      port.postMessage({ id: job.id, result } satisfies ParseAnswer);
    } catch {
      const plain: ParseResult =
        result.kind === 'error'
          ? { kind: 'error', error: { code: result.error.code, message: result.error.message } }
          : result;
      port.postMessage({ id: job.id, result: plain } satisfies ParseAnswer);
    }
  });
  // The parser is loaded: the pool hands over documents only now, so a worker that cannot start
  // leaves the bytes with the pool to parse inline.
  port.postMessage({ ready: true });
}
