/** Reads a feed for the CLI from a file path or an http(s) URL, through the one HTTP client. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_VERSION, PROJECT_URL } from '../app/version.ts';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { createHttpClient } from '../net/http-client.ts';
import type { HttpClient } from '../net/http-client-types.ts';

export interface FeedInput {
  body: Uint8Array;
  url: string;
  contentType: string | null;
}

/** The CLI acts for the person typing: their own machine and network are fair game. */
export function cliHttpClient(): HttpClient {
  return createHttpClient({
    version: APP_VERSION,
    projectUrl: PROJECT_URL,
    hostPolicy: { allowLoopback: true, allowPrivate: true },
  });
}

export async function readFeedInput(source: string, http: HttpClient): Promise<Result<FeedInput>> {
  if (/^https?:\/\//i.test(source)) {
    const res = await http.fetchFeed({ url: source });
    if (res.kind === 'ok') return ok({ body: res.body, url: res.finalUrl, contentType: res.contentType });
    if (res.kind === 'error') return fail(res.error);
    return fail(tidingsError('cli.status', `${source} answered ${res.status} with no feed body.`));
  }
  try {
    const path = resolve(source);
    return ok({
      body: new Uint8Array(await readFile(path)),
      url: pathToFileURL(path).href,
      contentType: null,
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (e as Error).message;
    return fail(tidingsError('cli.read', `Cannot read ${source}: ${why}.`));
  }
}
