/**
 * Small XML documents that come in as requests (XML-RPC calls, RSS Ping documents) read into a
 * tree of elements by saxes: a strict XML 1.0 parser, linear in its input, that never expands a
 * DTD (the callers refuse any DOCTYPE first) and refuses characters XML cannot hold (a raw
 * control character, `&#1;`). Nesting is capped while parsing.
 *
 * `readXmlSliced` writes the text a slice at a time and gives the event loop back between slices,
 * within a time budget: a server reading a megabyte for one caller keeps answering the others.
 */
import { SaxesParser } from 'saxes';

export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  /** Its own text and CDATA, in order (entities resolved, CDATA as is); not its children's. */
  text: string;
  children: XmlNode[];
  /** Where its content is in the text read: [contentFrom, contentTo) (markup as written). */
  contentFrom: number;
  contentTo: number;
}

export type XmlReadProblem =
  | { kind: 'malformed'; detail: string; line: number }
  | { kind: 'unknownEntity'; line: number }
  | { kind: 'tooDeep'; maxDepth: number }
  | { kind: 'tooSlow'; budgetMs: number };

export type XmlRead = { ok: true; root: XmlNode | null } | { ok: false; problem: XmlReadProblem };

export interface XmlReadOptions {
  /** Elements nested deeper than this are refused. */
  maxDepth: number;
}

export interface SlicedReadOptions extends XmlReadOptions {
  /** Characters parsed between two yields to the event loop (default 8,192). */
  sliceChars?: number;
  /** Refused when not read within this many ms, yields included (default 2,000). */
  budgetMs?: number;
}

class Stop extends Error {
  readonly problem: XmlReadProblem;
  constructor(problem: XmlReadProblem) {
    super(problem.kind);
    this.problem = problem;
  }
}

/** The whole text at once (root null: a blank text). */
export function readXml(text: string, opts: XmlReadOptions): XmlRead {
  if (text.trim() === '') return { ok: true, root: null };
  const reader = new TreeReader(text, opts.maxDepth);
  return reader.step(() => reader.write(0, text.length)) ?? reader.finish();
}

/** readXml a slice at a time (see the file's comment). */
export async function readXmlSliced(text: string, opts: SlicedReadOptions): Promise<XmlRead> {
  const started = performance.now();
  if (text.trim() === '') return { ok: true, root: null };
  const slice = Math.max(1024, opts.sliceChars ?? 8 * 1024);
  const budgetMs = opts.budgetMs ?? 2000;
  const reader = new TreeReader(text, opts.maxDepth);
  for (let at = 0; at < text.length; at += slice) {
    const failed = reader.step(() => reader.write(at, Math.min(text.length, at + slice)));
    if (failed) return failed;
    if (at + slice < text.length) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (performance.now() - started > budgetMs)
        return { ok: false, problem: { kind: 'tooSlow', budgetMs } };
    }
  }
  return reader.finish();
}

/** The tree built from saxes' events as the text is written to it. */
class TreeReader {
  private readonly parser = new SaxesParser({ position: true });
  private readonly text: string;
  private readonly stack: XmlNode[] = [];
  private root: XmlNode | null = null;

  constructor(text: string, maxDepth: number) {
    this.text = text;
    const p = this.parser;
    p.on('opentag', (tag) => {
      if (this.stack.length >= maxDepth) throw new Stop({ kind: 'tooDeep', maxDepth });
      // saxes' position is just past the start tag's `>` (for <x/>, past the `/>`).
      const node: XmlNode = {
        name: tag.name,
        attributes: tag.attributes as Record<string, string>,
        text: '',
        children: [],
        contentFrom: p.position,
        contentTo: p.position,
      };
      const parent = this.stack.at(-1);
      if (parent) parent.children.push(node);
      else this.root = node;
      this.stack.push(node);
    });
    p.on('closetag', (tag) => {
      const node = this.stack.pop();
      // Just past the end tag's `>`: its content ends where that end tag starts.
      if (node && !tag.isSelfClosing) node.contentTo = this.text.lastIndexOf('</', p.position);
    });
    const onText = (t: string) => {
      const top = this.stack.at(-1);
      if (top) top.text += t;
    };
    p.on('text', onText);
    p.on('cdata', onText);
    p.on('error', (e) => {
      throw this.malformed(e.message);
    });
  }

  write(from: number, to: number): void {
    this.parser.write(this.text.slice(from, to));
  }

  /** Runs a step of the parser; its problem, or null when it went through. */
  step(run: () => void): XmlRead | null {
    try {
      run();
      return null;
    } catch (e) {
      if (e instanceof Stop) return { ok: false, problem: e.problem };
      throw e;
    }
  }

  finish(): XmlRead {
    return this.step(() => this.parser.close()) ?? { ok: true, root: this.root };
  }

  /** saxes' message ("1:15: disallowed character.") as a problem with its line. */
  private malformed(message: string): Stop {
    const line = this.parser.line;
    if (/undefined entity/.test(message)) return new Stop({ kind: 'unknownEntity', line });
    const detail = message.replace(/^(?:[^:]*:)?\d+:\d+:\s*/, '').replace(/\.$/, '');
    return new Stop({ kind: 'malformed', detail, line });
  }
}

export function childNamed(node: XmlNode, name: string): XmlNode | undefined {
  for (const c of node.children) if (c.name === name) return c;
  return undefined;
}
