import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  decodeMethodCall,
  decodeMethodResponse,
  encodeFault,
  encodeMethodCall,
  encodeMethodResponse,
  type XmlRpcValue,
  xmlRpcTyped,
} from './xmlrpc.ts';

const fixture = (name: string) => readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8');

function call(paramsXml: string, name = 'x.y'): string {
  return `<?xml version="1.0"?><methodCall><methodName>${name}</methodName><params>${paramsXml}</params></methodCall>`;
}

function decodeOne(valueXml: string): XmlRpcValue {
  const r = decodeMethodCall(call(`<param><value>${valueXml}</value></param>`));
  if (!r.ok) throw new Error(r.error.message);
  return r.value.params[0]!;
}

describe('decode scalar values', () => {
  it.each([
    ['untyped text is a string', 'http://a.example/rss.xml', 'http://a.example/rss.xml'],
    ['untyped text keeps its spaces', '  two words ', '  two words '],
    ['empty untyped value', '', ''],
    ['<string>', '<string>hi</string>', 'hi'],
    ['<string> keeps spaces', '<string> sp </string>', ' sp '],
    ['empty <string/>', '<string/>', ''],
    ['entities', '<string>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;</string>', 'a & b <c> "d" \'e\''],
    ['numeric references', '<string>&#65;&#x42;&#x1F600;</string>', 'AB😀'],
    ['CDATA is literal', '<string><![CDATA[<b>&amp;</b>]]></string>', '<b>&amp;</b>'],
    ['<i4>', '<i4>42</i4>', 42],
    ['<int> negative', '<int> -7 </int>', -7],
    ['<i8>', '<i8>9007199254740991</i8>', 9007199254740991],
    ['<double>', '<double>-1.5</double>', -1.5],
    ['<double> exponent', '<double>1e3</double>', 1000],
    ['<boolean>1', '<boolean>1</boolean>', true],
    ['<boolean>0', '<boolean>0</boolean>', false],
    ['<boolean>true (lenient)', '<boolean>true</boolean>', true],
    ['<nil/>', '<nil/>', null],
  ])('%s', (_label, xml, expected) => {
    expect(decodeOne(xml)).toEqual(expected);
  });

  it.each([
    ['19980717T14:08:55', '1998-07-17T14:08:55.000Z'],
    ['19980717T140855', '1998-07-17T14:08:55.000Z'],
    ['1998-07-17T14:08:55Z', '1998-07-17T14:08:55.000Z'],
    ['1998-07-17T14:08:55+02:00', '1998-07-17T12:08:55.000Z'],
  ])('dateTime.iso8601 %s', (text, iso) => {
    const v = decodeOne(`<dateTime.iso8601>${text}</dateTime.iso8601>`);
    expect(v).toBeInstanceOf(Date);
    expect((v as Date).toISOString()).toBe(iso);
  });

  it('base64 decodes to bytes, whitespace ignored', () => {
    const v = decodeOne('<base64>aGVs\n bG8=</base64>');
    expect(v).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(v as Uint8Array).toString()).toBe('hello');
  });
});

describe('decode compound values', () => {
  it('array of mixed values, typed and untyped', () => {
    expect(
      decodeOne(
        '<array><data><value>a</value><value><int>1</int></value><value><string>b</string></value></data></array>',
      ),
    ).toEqual(['a', 1, 'b']);
  });

  it('empty array', () => {
    expect(decodeOne('<array><data></data></array>')).toEqual([]);
  });

  it('nested struct', () => {
    expect(
      decodeOne(
        '<struct><member><name>a</name><value><i4>1</i4></value></member>' +
          '<member><name>b</name><value><struct><member><name>c</name><value>x</value></member></struct></value></member></struct>',
      ),
    ).toEqual({ a: 1, b: { c: 'x' } });
  });

  it('a struct member named __proto__ stays a plain key', () => {
    const v = decodeOne(
      '<struct><member><name>__proto__</name><value><struct><member><name>polluted</name><value>yes</value></member></struct></value></member></struct>',
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('decode whole messages', () => {
  it('pleaseNotify as River5 sends it (pretty printed, untyped strings)', () => {
    const r = decodeMethodCall(fixture('please-notify-call.xml'));
    expect(r.ok && r.value).toEqual({
      methodName: 'rssCloud.pleaseNotify',
      params: [
        'river.feedUpdated',
        5337,
        '/RPC2',
        'xml-rpc',
        ['http://feeds.example/rss.xml', 'http://feeds.example/two.xml'],
        'reader.example',
      ],
    });
  });

  it('a call without params', () => {
    const r = decodeMethodCall('<methodCall><methodName>rssCloud.hello</methodName></methodCall>');
    expect(r.ok && r.value).toEqual({ methodName: 'rssCloud.hello', params: [] });
  });

  it('bytes with a declared latin-1 encoding', () => {
    const xml = call('<param><value>caf\u00e9</value></param>').replace('?>', ' encoding="ISO-8859-1"?>');
    const r = decodeMethodCall(Buffer.from(xml, 'latin1'));
    expect(r.ok && r.value.params).toEqual(['café']);
  });

  it('a success response', () => {
    const r = decodeMethodResponse(
      '<?xml version="1.0"?><methodResponse><params><param><value><boolean>1</boolean></value></param></params></methodResponse>',
    );
    expect(r.ok && r.value).toEqual({ kind: 'value', value: true });
  });

  it('a fault response', () => {
    const r = decodeMethodResponse(fixture('fault.xml'));
    expect(r.ok && r.value).toEqual({
      kind: 'fault',
      faultCode: 4,
      faultString: 'Can\'t call "ping" because there aren\'t enough parameters.',
    });
  });
});

describe('decode refuses bad input with a readable error', () => {
  it.each([
    ['not XML', 'hello', 'xmlrpc.malformed', 'not well-formed'],
    ['empty body', '', 'xmlrpc.invalid', 'missing "methodCall"'],
    ['unclosed tag', '<methodCall><methodName>a</methodName>', 'xmlrpc.malformed', 'not well-formed'],
    [
      'mismatched tags',
      '<methodCall><methodName>a</params></methodCall>',
      'xmlrpc.malformed',
      'not well-formed',
    ],
    ['wrong root', '<methodResponse/>', 'xmlrpc.invalid', 'missing "methodCall"'],
    ['no method name', '<methodCall><params/></methodCall>', 'xmlrpc.invalid', 'missing "methodName"'],
    ['DOCTYPE (entity expansion)', fixture('billion-laughs.xml'), 'xmlrpc.doctype', 'DOCTYPE'],
    [
      'external entity',
      '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><methodCall><methodName>&e;</methodName></methodCall>',
      'xmlrpc.doctype',
      'DOCTYPE',
    ],
    ['unknown entity', call('<param><value>&nbsp;</value></param>'), 'xmlrpc.invalid', 'unknown entity'],
    ['bad int', call('<param><value><int>12a</int></value></param>'), 'xmlrpc.invalid', 'Bad XML-RPC int'],
    ['bad boolean', call('<param><value><boolean>2</boolean></value></param>'), 'xmlrpc.invalid', 'boolean'],
    [
      'bad date',
      call('<param><value><dateTime.iso8601>yesterday</dateTime.iso8601></value></param>'),
      'xmlrpc.invalid',
      'dateTime',
    ],
    [
      'unknown type',
      call('<param><value><float>1</float></value></param>'),
      'xmlrpc.invalid',
      'unknown value type',
    ],
    [
      'two types in one value',
      call('<param><value><int>1</int><string>a</string></value></param>'),
      'xmlrpc.invalid',
      'more than one',
    ],
    ['param without value', call('<param></param>'), 'xmlrpc.invalid', 'no <value>'],
    [
      'struct member without name',
      call('<param><value><struct><member><value>1</value></member></struct></value></param>'),
      'xmlrpc.invalid',
      'lacks a name',
    ],
  ])('%s', (_label, xml, code, fragment) => {
    const r = decodeMethodCall(xml);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe(code);
      expect(r.error.message).toContain(fragment);
    }
  });

  it('too deeply nested arrays', () => {
    const deep = '<array><data><value>'.repeat(80) + 'x' + '</value></data></array>'.repeat(80);
    const r = decodeMethodCall(call(`<param><value>${deep}</value></param>`));
    expect(r.ok).toBe(false);
  });

  it('bodies over the cap', () => {
    const r = decodeMethodCall(call(`<param><value>${'a'.repeat(2000)}</value></param>`), { maxBytes: 1000 });
    expect(r.ok || r.error.code).toBe('xmlrpc.tooLarge');
  });

  it('a fault whose value is not a struct', () => {
    const r = decodeMethodResponse('<methodResponse><fault><value>oops</value></fault></methodResponse>');
    expect(r.ok).toBe(false);
  });
});

describe('encode', () => {
  const roundTrip: [string, XmlRpcValue][] = [
    ['string with markup and CR', 'a < b & c > d\r\nline'],
    ['unicode', 'café 😀'],
    ['empty string', ''],
    ['int', 42],
    ['negative int', -2147483648],
    ['big number becomes double', 3000000000],
    ['fraction', 0.25],
    ['tiny double', 1.5e-9],
    ['booleans', [true, false]],
    ['null', null],
    ['nested', { list: ['a', 1, { deep: [true] }], name: 'x' }],
    ['empty struct and array', { a: {}, b: [] }],
  ];
  it.each(roundTrip)('round-trips %s', (_label, value) => {
    const r = decodeMethodCall(encodeMethodCall('test.echo', [value]));
    expect(r.ok && r.value).toEqual({ methodName: 'test.echo', params: [value] });
  });

  it('round-trips dates (UTC, whole seconds) and bytes', () => {
    const date = new Date('2026-03-04T05:06:07Z');
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const r = decodeMethodCall(encodeMethodCall('t', [date, bytes]));
    expect(r.ok && r.value.params).toEqual([date, bytes]);
    expect(encodeMethodCall('t', [date])).toContain('<dateTime.iso8601>20260304T05:06:07</dateTime.iso8601>');
  });

  it.each([
    [xmlRpcTyped('i4', 5), '<i4>5</i4>'],
    [xmlRpcTyped('int', 5), '<int>5</int>'],
    [xmlRpcTyped('double', 1), '<double>1.0</double>'],
    [xmlRpcTyped('string', 12), '<string>12</string>'],
    [xmlRpcTyped('boolean', 0), '<boolean>0</boolean>'],
    [xmlRpcTyped('base64', 'hi'), '<base64>aGk=</base64>'],
  ])('forced type %#', (value, fragment) => {
    expect(encodeMethodResponse(value)).toContain(fragment);
  });

  it('a response decodes back', () => {
    const r = decodeMethodResponse(encodeMethodResponse(true));
    expect(r.ok && r.value).toEqual({ kind: 'value', value: true });
  });

  it('a fault carries an int code and the message', () => {
    const xml = encodeFault(4, 'Can\'t call "ping" because there aren\'t enough parameters.');
    expect(xml).toContain('<name>faultCode</name><value><int>4</int></value>');
    const r = decodeMethodResponse(xml);
    expect(r.ok && r.value).toEqual({
      kind: 'fault',
      faultCode: 4,
      faultString: 'Can\'t call "ping" because there aren\'t enough parameters.',
    });
  });

  it('the notify call the cloud sends: method name and the feed url as <string>', () => {
    const xml = encodeMethodCall('river.feedUpdated', ['http://a.example/rss.xml?x=1&y=2']);
    expect(xml).toContain('<methodName>river.feedUpdated</methodName>');
    expect(xml).toContain('<value><string>http://a.example/rss.xml?x=1&amp;y=2</string></value>');
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['invalid date', new Date('nope')],
    ['out-of-range i4', xmlRpcTyped('i4', 2 ** 40)],
  ])('refuses %s', (_label, value) => {
    expect(() => encodeMethodResponse(value as XmlRpcValue)).toThrow(TypeError);
  });

  it('drops characters XML cannot hold (they threw: a control character in a site name stopped its ping)', () => {
    expect(encodeMethodResponse('a\u0001b\uD800c')).toContain('<string>abc</string>');
  });

  it('refuses a cycle', () => {
    const a: unknown[] = [];
    a.push(a);
    expect(() => encodeMethodResponse(a as XmlRpcValue)).toThrow(/contains itself/);
  });

  it('refuses a method name with markup', () => {
    expect(() => encodeMethodCall('a<b>', [])).toThrow(TypeError);
  });
});
