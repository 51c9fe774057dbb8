/**
 * Questions the CLI asks a person at a terminal (never a script: callers check `interactive`
 * first): a passphrase typed without echo, and a yes/no whose default is no.
 */
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';

/** A terminal's two ends (process.stdin and process.stderr; tests pass streams of their own). */
export interface PromptIO {
  input: Readable & { isTTY?: boolean; isRaw?: boolean; setRawMode?(mode: boolean): unknown };
  output: Writable & { isTTY?: boolean };
}

export const terminal = (): PromptIO => ({ input: process.stdin, output: process.stderr });

/** Someone is there to answer: both ends are a terminal. */
export const interactive = (io: PromptIO): boolean => io.input.isTTY === true && io.output.isTTY === true;

/** Ctrl-C at a prompt: the command stops, having changed nothing. */
export class PromptCancelled extends Error {
  constructor() {
    super('cancelled; nothing was changed');
  }
}

/** Reads one line without showing it (raw mode: the terminal does not echo what is typed). */
export function askHidden(question: string, io: PromptIO): Promise<string> {
  const { input, output } = io;
  output.write(question);
  const wasRaw = input.isRaw === true;
  input.setRawMode?.(true);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = () => {
      input.off('data', onData);
      input.setRawMode?.(wasRaw);
      input.pause();
      output.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || (ch === '\u0004' && text === '')) {
          finish();
          resolve(text);
          return;
        }
        if (ch === '\u0003') {
          finish();
          reject(new PromptCancelled());
          return;
        }
        if (ch === '\u007f' || ch === '\b') text = [...text].slice(0, -1).join('');
        else if (ch >= ' ') text += ch;
      }
    };
    input.on('data', onData);
  });
}

/** y or yes (any case) is yes; anything else, an empty answer included, is no. */
export async function askYesNo(question: string, io: PromptIO): Promise<boolean> {
  const rl = createInterface({ input: io.input, output: io.output, terminal: false });
  try {
    const answer = await rl.question(question);
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}
