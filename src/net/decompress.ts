/**
 * Reads a response body through node:zlib streams with a cap on DECOMPRESSED bytes: a gzip bomb
 * or an endless body stops at the cap and the socket is destroyed (pipeline destroys every
 * stream, the IncomingMessage takes its socket with it). Nothing past the cap is buffered.
 */
import type { IncomingMessage } from 'node:http';
import { type Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { badEncoding, NetFailure, tooLarge } from './net-errors.ts';

export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Content-Encoding as a list in the order the server applied them ('identity' dropped). */
export function contentEncodings(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '' && s !== 'identity');
}

/** zlib-wrapped deflate starts with a CMF byte (method 8, window <= 7) whose CMF*256+FLG % 31 is 0. */
function looksZlibWrapped(head: Buffer): boolean {
  const cmf = head[0];
  if (cmf === undefined) return true;
  if ((cmf & 0x0f) !== 8 || cmf >> 4 > 7) return false;
  const flg = head[1];
  return flg === undefined || (cmf * 256 + flg) % 31 === 0;
}

function decoderFor(encoding: string, head: Buffer | null): Transform | null {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      // Some servers send raw deflate under this name; the first bytes tell which it is.
      return head && !looksZlibWrapped(head) ? zlib.createInflateRaw() : zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

/** The first chunk of a stream, put back so the pipeline still sees it; null at end of stream. */
function peekFirstChunk(stream: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('close', onEnd);
      stream.off('error', onError);
    };
    const onReadable = () => {
      const chunk = stream.read() as Buffer | null;
      if (chunk === null) return;
      cleanup();
      stream.unshift(chunk);
      resolve(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (err: unknown) => {
      cleanup();
      reject(err);
    };
    stream.on('readable', onReadable);
    stream.once('end', onEnd);
    stream.once('close', onEnd);
    stream.once('error', onError);
  });
}

export interface ReadBodyOptions {
  /** Cap on decompressed bytes. */
  maxBytes: number;
  /** Undo Content-Encoding (false: keep the bytes as sent). */
  decode: boolean;
  /** For messages. */
  url: URL;
}

export interface BodyRead {
  body: Buffer;
  /** Bytes as they came off the wire (compressed). */
  wireBytes: number;
}

/** Reads the body; rejects with NetFailure ('http.tooLarge', 'http.badEncoding') or the socket's error. */
export async function readBody(res: IncomingMessage, opts: ReadBodyOptions): Promise<BodyRead> {
  const encodings = opts.decode ? contentEncodings(res.headers['content-encoding']) : [];
  const encodingHeader = encodings.join(', ');
  const declared = Number(res.headers['content-length']);
  if (encodings.length === 0 && Number.isFinite(declared) && declared > opts.maxBytes) {
    // Announced as too large: no need to read a byte of it.
    res.destroy();
    throw new NetFailure(tooLarge(opts.url, opts.maxBytes));
  }
  if (encodings.length === 0) return readPlain(res, opts);
  const head = encodings.at(-1) === 'deflate' ? await peekFirstChunk(res) : null;

  const decoders: Transform[] = [];
  // Undo them in reverse order of application; only the outermost one sees the raw first bytes.
  for (const [i, enc] of [...encodings].reverse().entries()) {
    const decoder = decoderFor(enc, i === 0 ? head : null);
    if (!decoder) {
      res.destroy();
      throw new NetFailure(badEncoding(opts.url, encodingHeader));
    }
    decoders.push(decoder);
  }
  let decoderError: unknown = null;
  for (const d of decoders) d.once('error', (e) => (decoderError ??= e));

  let wireBytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      wireBytes += chunk.length;
      cb(null, chunk);
    },
  });
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > opts.maxBytes) return cb(new NetFailure(tooLarge(opts.url, opts.maxBytes)));
      chunks.push(chunk);
      cb();
    },
  });

  try {
    await pipeline([res, counter, ...decoders, sink]);
  } catch (err) {
    if (err instanceof NetFailure) throw err;
    if (decoderError !== null && err === decoderError) {
      // An empty body with a Content-Encoding (HEAD-like answers) is just empty.
      if (wireBytes === 0) return { body: Buffer.alloc(0), wireBytes };
      throw new NetFailure(badEncoding(opts.url, encodingHeader, err));
    }
    throw err;
  }
  return { body: Buffer.concat(chunks, size), wireBytes };
}

/**
 * The common case (no Content-Encoding) without a stream pipeline: a pipeline per response costs
 * an AbortSignal and a DOMException with a stack on every finish, which dominated a cloud's
 * fan-out of 10,000 notifications and a 1,000-feed poll cycle.
 */
function readPlain(res: IncomingMessage, opts: ReadBodyOptions): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const settle = (fn: () => void) => {
      if (done) return;
      done = true;
      res.off('data', onData);
      fn();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > opts.maxBytes) {
        const failure = new NetFailure(tooLarge(opts.url, opts.maxBytes));
        settle(() => reject(failure));
        res.destroy();
        return;
      }
      chunks.push(chunk);
    };
    res.on('data', onData);
    res.once('end', () => settle(() => resolve({ body: Buffer.concat(chunks, size), wireBytes: size })));
    res.once('error', (err) => settle(() => reject(err)));
    // A socket torn down mid-body ends with 'close' and neither 'end' nor 'error'.
    res.once('close', () => {
      if (!res.complete)
        settle(() => reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })));
    });
  });
}

const DISCARD_CAP = 64 * 1024;

/**
 * Drains a body nobody needs (redirects, errors) so the keep-alive socket can be reused; a body
 * over 64 KiB is not worth the wait and the socket is destroyed instead. Never rejects.
 */
export async function discardBody(res: IncomingMessage, url: URL): Promise<void> {
  const length = Number(res.headers['content-length']);
  if (Number.isFinite(length) && length > DISCARD_CAP) {
    res.destroy();
    return;
  }
  try {
    await readBody(res, { maxBytes: DISCARD_CAP, decode: false, url });
  } catch {
    res.destroy();
  }
}
