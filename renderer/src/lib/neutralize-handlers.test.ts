import { describe, expect, it } from 'vitest';
import { neutralizeHandlers } from './neutralize-handlers';

describe('neutralizeHandlers', () => {
  const cases: [string, string][] = [
    ['<img src=x onerror="alert(1)">', '<img src=x data-blocked-onerror="alert(1)">'],
    ['<svg/onload=alert(1)>', '<svg/data-blocked-onload=alert(1)>'],
    ['<div ONCLICK=\'x()\' title="on=1">t</div>', '<div data-blocked-ONCLICK=\'x()\' title="on=1">t</div>'],
    ['<a href="x" title="a onclick=b">go on=now</a>', '<a href="x" title="a onclick=b">go on=now</a>'],
    ['plain text with no tags, carry on', 'plain text with no tags, carry on'],
    ['<!-- <b onclick=x> --><p>1 < 2 onward</p>', '<!-- <b onclick=x> --><p>1 < 2 onward</p>'],
    ['<b\nonmouseover = "x">', '<b\ndata-blocked-onmouseover = "x">'],
    ['<input type=text online>', '<input type=text data-blocked-online>'],
    ['<img src="a.png" alt="one">', '<img src="a.png" alt="one">'],
  ];
  for (const [input, output] of cases) it(input, () => expect(neutralizeHandlers(input)).toBe(output));

  it('copes with a tag cut off at the end', () => {
    expect(neutralizeHandlers('<img onerror="x')).toBe('<img data-blocked-onerror="x');
  });
});
