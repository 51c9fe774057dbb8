/** A web page with an article in it, between a menu and a footer, as news sites serve them (tests, bench). */
export function articlePage(title: string, paragraphs: number, extra = ''): string {
  const para = (i: number) =>
    `<p>Paragraph ${i} of the article about ${title}, long enough to read as prose, with commas, clauses, and a <a href="/more/${i}">relative link</a> inside it.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} - The Loopback Times</title></head>
<body><nav><a href="/">Home</a> <a href="/world">World</a> <a href="/sport">Sport</a></nav>
<article><h1>${title}</h1><p class="byline">By A. Writer</p>${extra}
${Array.from({ length: paragraphs }, (_, i) => para(i + 1)).join('\n')}
</article><footer><a href="/about">About</a> <a href="/privacy">Privacy</a></footer></body></html>`;
}
