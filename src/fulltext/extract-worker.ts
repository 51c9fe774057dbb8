/**
 * extractArticle on a worker thread (extract-pool.ts starts it): Readability over a big page
 * takes seconds of CPU (about 3 s for a 0.5 MB page on these machines), which on the main thread
 * would stop the API, the receiver and the poller meanwhile.
 */
import { parentPort } from 'node:worker_threads';
import { type Extracted, extractArticle } from './extract.ts';

export interface ExtractJob {
  id: number;
  html: string;
  url: string;
}

export interface ExtractAnswer {
  id: number;
  result: Extracted | { ok: false; code: 'fulltext.extractFailed'; message: string };
}

const port = parentPort;
if (port) {
  port.on('message', (job: ExtractJob) => {
    let result: ExtractAnswer['result'];
    try {
      result = extractArticle(job.html, job.url);
    } catch (e) {
      result = {
        ok: false,
        code: 'fulltext.extractFailed',
        message: `The page could not be read as an article: ${e instanceof Error ? e.message : String(e)}`,
      };
    }
    port.postMessage({ id: job.id, result } satisfies ExtractAnswer);
  });
  port.postMessage({ ready: true });
}
