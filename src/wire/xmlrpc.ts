/**
 * The one XML-RPC codec (ARCHITECTURE: one owner per concern). The cloud server, the receiver,
 * the pleaseNotify client and the ping queue all encode and decode through here.
 *
 * Encoding maps JS values to XML-RPC types: integer numbers in the 32-bit range -> <int>, other
 * numbers -> <double>, boolean, string, Date -> dateTime.iso8601 (UTC), Uint8Array -> base64,
 * arrays, plain objects -> struct, null -> <nil/> (an extension). `xmlRpcTyped` forces a type.
 *
 * Decoding uses saxes, a strict XML 1.0 parser that is linear in its input: any <!DOCTYPE is
 * refused (no entity expansion tricks), only the five XML entities and character references are
 * known, a character XML 1.0 cannot hold (a raw control character, `&#1;`) makes the message
 * not well-formed, input size and nesting are capped, and errors are readable. An untyped
 * <value>text</value> is a string. `decodeMethodCallAsync` reads a large message a slice at a
 * time, giving the event loop back between slices, within a time budget: a server decoding a
 * megabyte for one caller keeps answering the others.
 */

import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { escapeXmlText } from '../feed/xml-escape.ts';
import { childNamed, readXml, readXmlSliced, type XmlNode, type XmlRead } from './xml-tree.ts';

/** Forces an XML-RPC type for a value whose JS type is ambiguous (e.g. a double that is 1). */
export class XmlRpcTyped {
  readonly type: 'i4' | 'int' | 'double' | 'string' | 'boolean' | 'base64' | 'dateTime.iso8601';
  readonly value: string | number | boolean | Date | Uint8Array;
  constructor(type: XmlRpcTyped['type'], value: XmlRpcTyped['value']) {
    this.type = type;
    this.value = value;
  }
}

export type XmlRpcValue =
  | null
  | string
  | number
  | boolean
  | Date
  | Uint8Array
  | XmlRpcTyped
  | readonly XmlRpcValue[]
  | { readonly [key: string]: XmlRpcValue };

export const xmlRpcTyped = (type: XmlRpcTyped['type'], value: XmlRpcTyped['value']): XmlRpcTyped =>
  new XmlRpcTyped(type, value);

export interface XmlRpcCall {
  methodName: string;
  params: XmlRpcValue[];
}

export type XmlRpcResponse =
  | { kind: 'value'; value: XmlRpcValue }
  | { kind: 'fault'; faultCode: number; faultString: string };

export interface DecodeOptions {
  /** Refuse bodies larger than this many bytes (default 1 MiB). */
  maxBytes?: number;
}

export interface AsyncDecodeOptions extends DecodeOptions {
  /** Characters parsed between two yields to the event loop (default 8,192). */
  sliceChars?: number;
  /** Refuse a message not decoded within this many ms, yields included (default 2,000). */
  budgetMs?: number;
}

// ---------------------------------------------------------------------------------------------
// Encoding

const DECLARATION = '<?xml version="1.0"?>\n';

/**
 * Headers for every XML-RPC call Tidings makes (pleaseNotify, ping, notify, weblogUpdates,
 * saveRss). The reference cloud answers 406 unless Accept names application/xml (or a wildcard),
 * and older peers want text/xml: name both.
 */
export const XMLRPC_REQUEST_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/xml; charset=utf-8',
  accept: 'text/xml, application/xml',
};

export function encodeMethodCall(methodName: string, params: readonly XmlRpcValue[] = []): string {
  if (!/^[A-Za-z0-9_.:/]+$/.test(methodName)) {
    throw new TypeError(`XML-RPC method name "${methodName}" has characters XML-RPC does not allow.`);
  }
  const ps = params.map((p) => `<param>${encodeValue(p)}</param>`).join('\n');
  return `${DECLARATION}<methodCall>\n<methodName>${methodName}</methodName>\n<params>\n${ps}\n</params>\n</methodCall>\n`;
}

export function encodeMethodResponse(value: XmlRpcValue): string {
  return `${DECLARATION}<methodResponse>\n<params>\n<param>${encodeValue(value)}</param>\n</params>\n</methodResponse>\n`;
}

export function encodeFault(faultCode: number, faultString: string): string {
  const v = encodeValue({ faultCode: xmlRpcTyped('int', faultCode), faultString });
  return `${DECLARATION}<methodResponse>\n<fault>\n${v}\n</fault>\n</methodResponse>\n`;
}

/** One `<value>...</value>` element. Throws a TypeError for values XML-RPC cannot carry. */
export function encodeValue(v: XmlRpcValue, depth = 0, seen: Set<object> = new Set()): string {
  if (depth > MAX_DEPTH) throw new TypeError('XML-RPC value is nested too deeply.');
  if (v === null) return '<value><nil/></value>';
  if (v instanceof XmlRpcTyped) return `<value>${encodeTyped(v)}</value>`;
  switch (typeof v) {
    case 'string':
      return `<value><string>${escapeText(v)}</string></value>`;
    case 'boolean':
      return `<value><boolean>${v ? 1 : 0}</boolean></value>`;
    case 'number':
      return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647
        ? `<value><int>${v}</int></value>`
        : `<value>${encodeTyped(new XmlRpcTyped('double', v))}</value>`;
  }
  if (v instanceof Date) return `<value>${encodeTyped(new XmlRpcTyped('dateTime.iso8601', v))}</value>`;
  if (v instanceof Uint8Array) return `<value><base64>${Buffer.from(v).toString('base64')}</base64></value>`;
  if (typeof v !== 'object') throw new TypeError(`XML-RPC cannot carry a ${typeof v}.`);
  if (seen.has(v)) throw new TypeError('XML-RPC cannot carry a value that contains itself.');
  seen.add(v);
  try {
    if (Array.isArray(v)) {
      const items = v.map((x: XmlRpcValue) => encodeValue(x, depth + 1, seen)).join('');
      return `<value><array><data>${items}</data></array></value>`;
    }
    const members = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `<member><name>${escapeText(k)}</name>${encodeValue(x, depth + 1, seen)}</member>`)
      .join('');
    return `<value><struct>${members}</struct></value>`;
  } finally {
    seen.delete(v);
  }
}

function encodeTyped(t: XmlRpcTyped): string {
  const { type, value } = t;
  switch (type) {
    case 'i4':
    case 'int': {
      const n = Number(value);
      if (!Number.isInteger(n) || n < -2147483648 || n > 2147483647) {
        throw new TypeError(`XML-RPC ${type} must be a 32-bit integer, not ${String(value)}.`);
      }
      return `<${type}>${n}</${type}>`;
    }
    case 'double': {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new TypeError(`XML-RPC double must be finite, not ${String(value)}.`);
      // XML-RPC doubles have no exponent form: print the plain decimal expansion.
      const s = Math.abs(n) < 1e21 && (Math.abs(n) >= 1e-6 || n === 0) ? String(n) : toPlainDecimal(n);
      return `<double>${s.includes('.') ? s : `${s}.0`}</double>`;
    }
    case 'boolean':
      return `<boolean>${value ? 1 : 0}</boolean>`;
    case 'string':
      return `<string>${escapeText(String(value))}</string>`;
    case 'base64': {
      const bytes = value instanceof Uint8Array ? value : Buffer.from(String(value), 'utf8');
      return `<base64>${Buffer.from(bytes).toString('base64')}</base64>`;
    }
    case 'dateTime.iso8601': {
      const d = value instanceof Date ? value : new Date(String(value));
      if (Number.isNaN(d.getTime())) throw new TypeError('XML-RPC dateTime.iso8601 needs a valid date.');
      // The classic form (no dashes, no zone): what UserLand-era peers parse. Always UTC.
      const iso = d.toISOString();
      return `<dateTime.iso8601>${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 19)}</dateTime.iso8601>`;
    }
  }
}

function toPlainDecimal(n: number): string {
  const s = n.toFixed(20).replace(/0+$/, '');
  return s.endsWith('.') ? `${s}0` : s;
}

/**
 * Element content, by the one owner of XML escaping (xml-escape.ts): characters XML 1.0 cannot
 * represent are dropped (they made every call with one throw: a site name with a control
 * character stopped its weblogUpdates ping), `\r` kept as a character reference.
 */
const escapeText = escapeXmlText;

// ---------------------------------------------------------------------------------------------
// Decoding

const MAX_DEPTH = 64;
/** Elements nested deeper than this are refused while parsing (a value nests 4 elements per level). */
const MAX_ELEMENT_DEPTH = MAX_DEPTH * 4 + 8;
const DEFAULT_MAX_BYTES = 1024 * 1024;

type Element = XmlNode;

/** Thrown inside the decoder only; turned into a Result at the edge. */
class DecodeError extends Error {}

export function decodeMethodCall(body: string | Uint8Array, opts: DecodeOptions = {}): Result<XmlRpcCall> {
  const text = prepare(body, opts);
  return text.ok ? finish(readXml(text.value, { maxDepth: MAX_ELEMENT_DEPTH }), readCall) : text;
}

/** decodeMethodCall a slice at a time, yielding between slices (see the file's comment). */
export async function decodeMethodCallAsync(
  body: string | Uint8Array,
  opts: AsyncDecodeOptions = {},
): Promise<Result<XmlRpcCall>> {
  const text = prepare(body, opts);
  if (!text.ok) return text;
  const read = await readXmlSliced(text.value, {
    maxDepth: MAX_ELEMENT_DEPTH,
    ...(opts.sliceChars ? { sliceChars: opts.sliceChars } : {}),
    ...(opts.budgetMs ? { budgetMs: opts.budgetMs } : {}),
  });
  return finish(read, readCall);
}

export function decodeMethodResponse(
  body: string | Uint8Array,
  opts: DecodeOptions = {},
): Result<XmlRpcResponse> {
  const text = prepare(body, opts);
  return text.ok ? finish(readXml(text.value, { maxDepth: MAX_ELEMENT_DEPTH }), readResponse) : text;
}

function readCall(root: Element | null): XmlRpcCall {
  if (root?.name !== 'methodCall') throw new DecodeError('Bad XML-RPC call, missing "methodCall" element.');
  const nameNode = childNamed(root, 'methodName');
  const methodName = nameNode ? nameNode.text.trim() : '';
  if (!methodName) throw new DecodeError('Bad XML-RPC call, missing "methodName" element.');
  return { methodName, params: decodeParams(root) };
}

function readResponse(root: Element | null): XmlRpcResponse {
  if (root?.name !== 'methodResponse')
    throw new DecodeError('Bad XML-RPC response, missing "methodResponse" element.');
  const faultNode = childNamed(root, 'fault');
  if (faultNode) {
    const valueNode = childNamed(faultNode, 'value');
    const v = valueNode ? decodeValueNode(valueNode, 0) : null;
    if (!isStruct(v)) throw new DecodeError('Bad XML-RPC fault, its value is not a struct.');
    const code = v.faultCode;
    const message = v.faultString;
    return {
      kind: 'fault',
      faultCode: typeof code === 'number' ? code : Number(code ?? 0) || 0,
      faultString: typeof message === 'string' ? message : String(message ?? ''),
    };
  }
  const params = decodeParams(root);
  if (params.length === 0) throw new DecodeError('Bad XML-RPC response, it has no value.');
  return { kind: 'value', value: params[0]! };
}

/** The body as text, or why it is refused before any parsing (too large, a DOCTYPE). */
function prepare(body: string | Uint8Array, opts: DecodeOptions): Result<string> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (size > maxBytes) {
    return fail(
      tidingsError('xmlrpc.tooLarge', `XML-RPC message is larger than ${maxBytes} bytes.`, { maxBytes }),
    );
  }
  const text = typeof body === 'string' ? body : bytesToText(body);
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    return fail(tidingsError('xmlrpc.doctype', 'XML-RPC messages may not contain a DOCTYPE.'));
  }
  return ok(text);
}

/** The message read from its tree, or the reason it is not one, in words. */
function finish<T>(read: XmlRead, message: (root: Element | null) => T): Result<T> {
  if (!read.ok) {
    const p = read.problem;
    switch (p.kind) {
      case 'malformed':
        return fail(
          tidingsError(
            'xmlrpc.malformed',
            `Bad XML-RPC message, not well-formed XML: ${p.detail} (line ${p.line}).`,
          ),
        );
      case 'unknownEntity':
        return fail(
          tidingsError(
            'xmlrpc.invalid',
            `Bad XML-RPC message, it names an unknown entity (line ${p.line}; only the five of XML are known).`,
          ),
        );
      case 'tooDeep':
        return fail(tidingsError('xmlrpc.invalid', 'Bad XML-RPC message, values are nested too deeply.'));
      case 'tooSlow':
        return fail(
          tidingsError(
            'xmlrpc.tooSlow',
            `Bad XML-RPC message, it could not be read within ${p.budgetMs} ms.`,
          ),
        );
    }
  }
  try {
    return ok(message(read.root));
  } catch (e) {
    if (e instanceof DecodeError) return fail(tidingsError('xmlrpc.invalid', e.message));
    return fail(tidingsError('xmlrpc.malformed', 'Bad XML-RPC message, it could not be parsed.', {}, e));
  }
}

function bytesToText(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const label = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  try {
    return new TextDecoder(label ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function decodeParams(parent: Element): XmlRpcValue[] {
  const params = childNamed(parent, 'params');
  if (!params) return [];
  return params.children
    .filter((k) => k.name === 'param')
    .map((param) => {
      const valueNode = childNamed(param, 'value');
      if (!valueNode) throw new DecodeError('Bad XML-RPC message, a <param> has no <value>.');
      return decodeValueNode(valueNode, 0);
    });
}

/** Digits, an optional fraction, an optional exponent: no two quantifiers can share a digit (linear). */
const DOUBLE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function decodeValueNode(node: Element, depth: number): XmlRpcValue {
  if (depth > MAX_DEPTH) throw new DecodeError('Bad XML-RPC message, values are nested too deeply.');
  if (node.children.length === 0) return node.text; // untyped <value>text</value> is a string
  if (node.children.length > 1)
    throw new DecodeError('Bad XML-RPC message, a <value> holds more than one type.');
  const inner = node.children[0]!;
  const type = inner.name;
  const raw = () => inner.text;
  switch (type) {
    case 'string':
      return raw();
    case 'i4':
    case 'int':
    case 'i8': {
      const s = raw().trim();
      if (!/^[+-]?\d+$/.test(s)) throw new DecodeError(`Bad XML-RPC ${type} value "${clip(s)}".`);
      const n = Number(s);
      if (!Number.isSafeInteger(n))
        throw new DecodeError(`XML-RPC ${type} value ${clip(s)} is out of range.`);
      return n;
    }
    case 'double': {
      const s = raw().trim();
      if (!DOUBLE.test(s)) throw new DecodeError(`Bad XML-RPC double value "${clip(s)}".`);
      return Number(s);
    }
    case 'boolean': {
      const s = raw().trim().toLowerCase();
      if (s === '1' || s === 'true') return true;
      if (s === '0' || s === 'false') return false;
      throw new DecodeError(`Bad XML-RPC boolean value "${clip(s)}".`);
    }
    case 'dateTime.iso8601':
      return parseIsoDate(raw().trim());
    case 'base64': {
      const s = raw().replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s)) throw new DecodeError('Bad XML-RPC base64 value.');
      return new Uint8Array(Buffer.from(s, 'base64'));
    }
    case 'nil':
      return null;
    case 'array': {
      const data = childNamed(inner, 'data');
      if (!data) return [];
      return data.children.filter((k) => k.name === 'value').map((v) => decodeValueNode(v, depth + 1));
    }
    case 'struct': {
      const out: Record<string, XmlRpcValue> = {};
      for (const member of inner.children) {
        if (member.name !== 'member') continue;
        const nameNode = childNamed(member, 'name');
        const valueNode = childNamed(member, 'value');
        if (!nameNode || !valueNode)
          throw new DecodeError('Bad XML-RPC struct, a member lacks a name or value.');
        // defineProperty: a member named "__proto__" stays a plain key, never a prototype.
        Object.defineProperty(out, nameNode.text, {
          value: decodeValueNode(valueNode, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    default:
      throw new DecodeError(`Bad XML-RPC message, unknown value type <${clip(type)}>.`);
  }
}

function parseIsoDate(s: string): Date {
  // 19980717T14:08:55, 19980717T140855, 1998-07-17T14:08:55, each with an optional Z or +hh:mm.
  const m = /^(\d{4})-?(\d{2})-?(\d{2})T(\d{2}):?(\d{2}):?(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
  if (!m) throw new DecodeError(`Bad XML-RPC dateTime.iso8601 value "${clip(s)}".`);
  const [, y, mo, d, h, mi, se, frac, zone] = m;
  let ms = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +se!, frac ? Math.round(Number(frac) * 1000) : 0);
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) throw new DecodeError(`Bad XML-RPC dateTime.iso8601 value "${clip(s)}".`);
  return date;
}

function isStruct(v: XmlRpcValue): v is { readonly [key: string]: XmlRpcValue } {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof Date) &&
    !(v instanceof Uint8Array)
  );
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}...` : s;
}
