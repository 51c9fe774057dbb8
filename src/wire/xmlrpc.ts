/**
 * The one XML-RPC codec (ARCHITECTURE: one owner per concern). The cloud server, the receiver,
 * the pleaseNotify client and the ping queue all encode and decode through here.
 *
 * Encoding maps JS values to XML-RPC types: integer numbers in the 32-bit range -> <int>, other
 * numbers -> <double>, boolean, string, Date -> dateTime.iso8601 (UTC), Uint8Array -> base64,
 * arrays, plain objects -> struct, null -> <nil/> (an extension). `xmlRpcTyped` forces a type.
 *
 * Decoding uses fast-xml-parser, never evaluates a DTD (any <!DOCTYPE is refused, so no entity
 * expansion tricks), decodes only the five XML entities and numeric references itself, caps input
 * size and nesting, and returns readable errors. An untyped <value>text</value> is a string.
 */

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { escapeXmlText } from '../feed/xml-escape.ts';

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
const DEFAULT_MAX_BYTES = 1024 * 1024;

type Node = Record<string, unknown>;
type Children = Node[];

const parser = new XMLParser({
  preserveOrder: true,
  parseTagValue: false,
  trimValues: false,
  ignoreAttributes: true,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
  maxNestedTags: MAX_DEPTH * 4,
});

/** Thrown inside the decoder only; turned into a Result at the edge. */
class DecodeError extends Error {}

export function decodeMethodCall(body: string | Uint8Array, opts: DecodeOptions = {}): Result<XmlRpcCall> {
  return decodeDocument(body, opts, (root) => {
    const call = findChild(root, 'methodCall');
    if (!call) throw new DecodeError('Bad XML-RPC call, missing "methodCall" element.');
    const nameNode = findChild(call, 'methodName');
    const methodName = nameNode ? textOf(nameNode).trim() : '';
    if (!methodName) throw new DecodeError('Bad XML-RPC call, missing "methodName" element.');
    return { methodName, params: decodeParams(call) };
  });
}

export function decodeMethodResponse(
  body: string | Uint8Array,
  opts: DecodeOptions = {},
): Result<XmlRpcResponse> {
  return decodeDocument(body, opts, (root): XmlRpcResponse => {
    const resp = findChild(root, 'methodResponse');
    if (!resp) throw new DecodeError('Bad XML-RPC response, missing "methodResponse" element.');
    const faultNode = findChild(resp, 'fault');
    if (faultNode) {
      const valueNode = findChild(faultNode, 'value');
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
    const params = decodeParams(resp);
    if (params.length === 0) throw new DecodeError('Bad XML-RPC response, it has no value.');
    return { kind: 'value', value: params[0]! };
  });
}

function decodeDocument<T>(body: string | Uint8Array, opts: DecodeOptions, read: (root: Children) => T) {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (size > maxBytes) {
    return fail<T>(
      tidingsError('xmlrpc.tooLarge', `XML-RPC message is larger than ${maxBytes} bytes.`, { maxBytes }),
    );
  }
  const text = typeof body === 'string' ? body : bytesToText(body);
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    return fail<T>(tidingsError('xmlrpc.doctype', 'XML-RPC messages may not contain a DOCTYPE.'));
  }
  // A blank body is not malformed, it is missing its root: the reader says which one.
  const valid = text.trim() === '' ? true : XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line } = valid.err;
    return fail<T>(
      tidingsError('xmlrpc.malformed', `Bad XML-RPC message, not well-formed XML: ${msg} (line ${line}).`),
    );
  }
  try {
    return ok(read(parser.parse(text) as Children));
  } catch (e) {
    if (e instanceof DecodeError) return fail<T>(tidingsError('xmlrpc.invalid', e.message));
    return fail<T>(tidingsError('xmlrpc.malformed', 'Bad XML-RPC message, it could not be parsed.', {}, e));
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

function decodeParams(parent: Children): XmlRpcValue[] {
  const params = findChild(parent, 'params');
  if (!params) return [];
  return elements(params)
    .filter(([name]) => name === 'param')
    .map(([, kids]) => {
      const valueNode = findChild(kids, 'value');
      if (!valueNode) throw new DecodeError('Bad XML-RPC message, a <param> has no <value>.');
      return decodeValueNode(valueNode, 0);
    });
}

function decodeValueNode(kids: Children, depth: number): XmlRpcValue {
  if (depth > MAX_DEPTH) throw new DecodeError('Bad XML-RPC message, values are nested too deeply.');
  const els = elements(kids);
  if (els.length === 0) return textOf(kids); // untyped <value>text</value> is a string
  if (els.length > 1) throw new DecodeError('Bad XML-RPC message, a <value> holds more than one type.');
  const [type, inner] = els[0]!;
  const raw = () => textOf(inner);
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
      // Digits split one way only (\d+\.?\d* tried every split: 16 KB of digits took 0.5 s).
      if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(s)) {
        throw new DecodeError(`Bad XML-RPC double value "${clip(s)}".`);
      }
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
      const data = findChild(inner, 'data');
      if (!data) return [];
      return elements(data)
        .filter(([name]) => name === 'value')
        .map(([, v]) => decodeValueNode(v, depth + 1));
    }
    case 'struct': {
      const out: Record<string, XmlRpcValue> = {};
      for (const [name, member] of elements(inner)) {
        if (name !== 'member') continue;
        const nameNode = findChild(member, 'name');
        const valueNode = findChild(member, 'value');
        if (!nameNode || !valueNode)
          throw new DecodeError('Bad XML-RPC struct, a member lacks a name or value.');
        // defineProperty: a member named "__proto__" stays a plain key, never a prototype.
        Object.defineProperty(out, textOf(nameNode), {
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

/** The element children of a preserveOrder node list, as [name, children] pairs. */
function elements(kids: Children): [string, Children][] {
  const out: [string, Children][] = [];
  for (const node of kids) {
    for (const key of Object.keys(node)) {
      if (key === '#text' || key === '#cdata' || key === ':@') continue;
      out.push([key, node[key] as Children]);
    }
  }
  return out;
}

function findChild(kids: Children, name: string): Children | undefined {
  for (const node of kids) if (Object.hasOwn(node, name)) return node[name] as Children;
  return undefined;
}

/** Concatenated text and CDATA of a node list; entities in text (not CDATA) decoded. */
function textOf(kids: Children): string {
  let s = '';
  for (const node of kids) {
    if (typeof node['#text'] === 'string') s += decodeEntities(node['#text']);
    else if (Array.isArray(node['#cdata'])) {
      for (const c of node['#cdata'] as Children) if (typeof c['#text'] === 'string') s += c['#text'];
    }
  }
  return s;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9A-Fa-f]+|#\d+|[A-Za-z][A-Za-z0-9]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new DecodeError('Bad XML-RPC message, a "&" is not escaped.');
    if (ref.startsWith('#')) {
      const cp = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      if (!(cp > 0 && cp <= 0x10ffff) || (cp >= 0xd800 && cp <= 0xdfff)) {
        throw new DecodeError(`Bad XML-RPC message, invalid character reference "${clip(whole)}".`);
      }
      return String.fromCodePoint(cp);
    }
    const named = NAMED[ref];
    if (named === undefined) throw new DecodeError(`Bad XML-RPC message, unknown entity "${clip(whole)}".`);
    return named;
  });
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}...` : s;
}
