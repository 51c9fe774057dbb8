import { describe, expect, it } from 'vitest';
import { detectFormat, jsonFeedFormat } from './detect.ts';

describe('detectFormat', () => {
  it.each([
    ['<rss version="2.0">', 'rss2.0'],
    ['<?xml version="1.0"?>\n<!-- hi -->\n<?xml-stylesheet href="s.xsl"?>\n<rss version="0.92">', 'rss0.92'],
    [
      '<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "x.dtd">\n<rss version=\'0.91\'>',
      'rss0.91',
    ],
    [
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">',
      'rss1.0',
    ],
    [
      '<rdf:RDF xmlns="http://my.netscape.com/rdf/simple/0.9/" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
      'rss0.90',
    ],
    ['<feed xmlns="http://www.w3.org/2005/Atom">', 'atom1.0'],
    ['<feed version="0.3" xmlns="http://purl.org/atom/ns#">', 'atom0.3'],
    ['<atom:feed xmlns:atom="http://www.w3.org/2005/Atom">', 'atom1.0'],
    ['<feed>', 'atom1.0'],
  ])('%s -> %s', (start, format) => {
    const d = detectFormat(`${start}</x>`);
    expect(d.kind === 'xml' && d.format).toBe(format);
  });

  it.each([
    ['{"version":"x"}', 'json'],
    ['  <redirect><newLocation/></redirect>', 'redirect'],
    ['<html><body/></html>', 'none'],
    ['<feed xmlns="http://example.com/not-atom">', 'none'],
    ['', 'none'],
    ['hello', 'none'],
  ])('%j -> %s', (doc, kind) => {
    expect(detectFormat(doc).kind).toBe(kind);
  });

  it.each([
    [{ version: 'https://jsonfeed.org/version/1', items: [] }, 'json1.0'],
    [{ version: 'http://jsonfeed.org/version/1.1', items: [] }, 'json1.1'],
    [{ version: 'https://jsonfeed.org/version/1.1/' }, 'json1.1'],
    [{ items: [] }, 'json1.1'],
    [{ title: 'no items' }, null],
    [[1, 2], null],
    ['string', null],
  ])('jsonFeedFormat(%j) = %j', (doc, format) => {
    expect(jsonFeedFormat(doc)).toBe(format);
  });
});
