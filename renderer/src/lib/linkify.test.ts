import { describe, expect, it } from 'vitest';
import { linkifyPieces } from './linkify';

describe('linkifyPieces', () => {
  it('finds http(s) and www. URLs and leaves closing punctuation out', () => {
    expect(linkifyPieces('See https://example.com/a, and www.example.org.')).toEqual([
      { text: 'See ' },
      { url: 'https://example.com/a', text: 'https://example.com/a' },
      { text: ', and ' },
      { url: 'https://www.example.org', text: 'www.example.org' },
      { text: '.' },
    ]);
  });

  it('keeps balanced parentheses inside the URL', () => {
    expect(linkifyPieces('(https://en.wikipedia.org/wiki/Foo_(bar))')).toEqual([
      { text: '(' },
      { url: 'https://en.wikipedia.org/wiki/Foo_(bar)', text: 'https://en.wikipedia.org/wiki/Foo_(bar)' },
      { text: ')' },
    ]);
  });

  it('leaves text without URLs whole, and never links javascript:', () => {
    expect(linkifyPieces('no links here')).toEqual([{ text: 'no links here' }]);
    expect(linkifyPieces('javascript:alert(1)')).toEqual([{ text: 'javascript:alert(1)' }]);
  });
});
