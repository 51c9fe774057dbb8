/**
 * The cloud's human pages, as the reference cloud has them (so a drop-in answers the same
 * addresses): GET /docs, one page per protocol under /docs/{slug}, and two forms, /pingForm and
 * /pleaseNotifyForm, that post to /ping and /pleaseNotify. Written for Tidings' cloud; an unknown
 * /docs page is 404.
 */
import { escapeXmlAttr } from '../../feed/xml-escape.ts';
import { escapeHtml, htmlResponse, page } from './html.ts';

interface Doc {
  title: string;
  /** HTML, with {base} standing for the cloud's path. */
  body: string;
}

const DOCS: Record<string, Doc> = {
  'rsscloud-rest': {
    title: 'rssCloud over REST',
    body: `<p>A reader asks to be told when feeds change:</p>
<pre>POST {base}/pleaseNotify
Content-Type: application/x-www-form-urlencoded

notifyProcedure=&amp;port=5337&amp;path=/notify&amp;protocol=http-post&amp;url1=https://example.org/feed.xml[&amp;domain=reader.example]</pre>
<p>With <code>domain</code>, the cloud checks the handler by <code>GET {callback}?url=..&amp;challenge=..</code>, which must
answer the challenge exactly; without it, the handler at the caller's address gets a test <code>POST url=..</code>.
The answer is <code>&lt;notifyResult success="true" msg="..."/&gt;</code>, or JSON with <code>Accept: application/json</code>.
Subscriptions last 25 hours: register again every day.</p>
<p>A publisher says a feed changed: <code>POST {base}/ping</code> with <code>url=</code>. The cloud reads the feed once,
compares it with the last read (hash and size) and, when it changed, notifies every subscriber by its own protocol.
The answer is <code>&lt;result success="true" msg="Thanks for the ping."/&gt;</code>.</p>`,
  },
  'rsscloud-xml-rpc': {
    title: 'rssCloud over XML-RPC',
    body: `<p>At <code>POST {base}/RPC2</code>:</p>
<ul>
<li><code>rssCloud.pleaseNotify(notifyProcedure, port, path, protocol, urlList[, domain])</code> answers true or a fault
(code 4) with the reason; the 2003 name <code>xmlStorageSystem.rssPleaseNotify</code> works too.</li>
<li><code>rssCloud.ping(url)</code> answers true.</li>
<li><code>rssCloud.hello()</code> answers true.</li>
<li><code>weblogUpdates.ping(name, url)</code> and <code>weblogUpdates.extendedPing(name, home, changedPage, feedUrl[, tags])</code>
answer <code>{flerror, message}</code>: each is a ping of the feed named (found from the home page when only a site is given).</li>
</ul>
<p>An xml-rpc subscriber is notified by a call of its notifyProcedure with the feed's URL.</p>`,
  },
  websub: {
    title: 'WebSub',
    body: `<p>This cloud is a WebSub hub at <code>{base}/websub</code> (W3C WebSub).</p>
<pre>POST {base}/websub
hub.mode=subscribe&amp;hub.callback=https://reader.example/cb&amp;hub.topic=https://example.org/feed.xml
[&amp;hub.lease_seconds=86400][&amp;hub.secret=...]</pre>
<p>The hub answers 202 and then verifies the intent: <code>GET {callback}?hub.mode=subscribe&amp;hub.topic=..&amp;hub.challenge=..&amp;hub.lease_seconds=..</code>
must answer 2xx with exactly the challenge. Leases are granted between 5 minutes and 10 days (1 day when none is asked).
<code>hub.mode=unsubscribe</code> is verified the same way.</p>
<p>When the topic changes, the hub POSTs its full body with its Content-Type and
<code>Link: &lt;hub&gt;; rel="hub", &lt;topic&gt;; rel="self"</code>; with a secret, <code>X-Hub-Signature: sha256=&lt;HMAC of the body&gt;</code>.
A failed delivery is tried again later; a 410 ends the subscription.</p>
<p>Publishers: <code>POST {base}/websub</code> with <code>hub.mode=publish&amp;hub.topic=..</code> (or <code>hub.url=..</code>), answered 202.</p>`,
  },
  'cross-protocol': {
    title: 'One hub, every protocol',
    body: `<p>There is one list of subscribers. A publisher signals a change by any door:</p>
<ul>
<li>rssCloud <code>POST {base}/ping</code> or XML-RPC <code>rssCloud.ping</code>;</li>
<li>WebSub <code>hub.mode=publish</code> at <code>{base}/websub</code>;</li>
<li>weblogUpdates (<code>weblogUpdates.ping</code>, <code>extendedPing</code>, or <code>GET {base}/pingSiteForm?name=..&amp;url=..</code>);</li>
<li>RSS Ping v2 documents at <code>POST {base}/rssPing</code> (the payload is checked against its published hash).</li>
</ul>
<p>Each leads to the same routine: read the feed once, compare it with the last read, and when it changed notify every
subscriber of that feed by the protocol it chose: http-post, https-post, xml-rpc, or WebSub content delivery.
The sites that changed in the last hour are in <a href="{base}/changes.xml">changes.xml</a>, newest first.</p>`,
  },
};

function docPage(base: string, title: string, body: string): Response {
  const nav = Object.entries(DOCS)
    .map(([slug, d]) => `<a href="${escapeXmlAttr(`${base}/docs/${slug}`)}">${escapeHtml(d.title)}</a>`)
    .join(' · ');
  return htmlResponse(
    page(
      `Tidings cloud: ${title}`,
      `<p><a href="${escapeXmlAttr(`${base}/`)}">Tidings cloud</a> · <a href="${escapeXmlAttr(`${base}/docs`)}">Docs</a></p>
<h1>${escapeHtml(title)}</h1>
${body.replaceAll('{base}', escapeHtml(base))}
<p>${nav}</p>`,
    ),
  );
}

/** GET /docs or /docs/{slug} (`slug` null for the index); 404 for an unknown page. */
export function docsPage(base: string, slug: string | null): Response {
  if (slug === null) {
    const list = Object.entries(DOCS)
      .map(([s, d]) => `<li><a href="${escapeXmlAttr(`${base}/docs/${s}`)}">${escapeHtml(d.title)}</a></li>`)
      .join('\n');
    return docPage(
      base,
      'Documentation',
      `<p>How to use this cloud: an rssCloud server and a WebSub hub over one list of subscribers.</p><ul>${list}</ul>
<p>Try it: <a href="${escapeXmlAttr(`${base}/pingForm`)}">ping a feed</a> · <a href="${escapeXmlAttr(`${base}/pleaseNotifyForm`)}">ask for notifications</a>.</p>`,
    );
  }
  const doc = DOCS[slug.toLowerCase()];
  if (!doc) {
    return htmlResponse(
      page(
        'Tidings cloud: no such page',
        `<h1>No such page</h1><p>There is no documentation page "${escapeHtml(slug)}". <a href="${escapeXmlAttr(`${base}/docs`)}">All pages</a>.</p>`,
      ),
      404,
    );
  }
  return docPage(base, doc.title, doc.body);
}

export function pingForm(base: string): Response {
  return docPage(
    base,
    'Ping a feed',
    `<form method="post" action="${escapeXmlAttr(`${base}/ping`)}">
<p><label>Feed URL <input type="url" name="url" required size="60"></label></p>
<p><button type="submit">Ping</button></p>
</form>`,
  );
}

export function pleaseNotifyForm(base: string): Response {
  return docPage(
    base,
    'Ask for notifications',
    `<form method="post" action="${escapeXmlAttr(`${base}/pleaseNotify`)}">
<p><label>Feed URL <input type="url" name="url1" required size="60"></label></p>
<p><label>Domain (optional) <input name="domain" size="40"></label></p>
<p><label>Port <input name="port" value="80" size="6" required></label>
<label>Path <input name="path" value="/feedupdated" required></label></p>
<p><label>Protocol <select name="protocol"><option>http-post</option><option>https-post</option><option>xml-rpc</option></select></label>
<label>Notify procedure (xml-rpc) <input name="notifyProcedure"></label></p>
<p><button type="submit">Ask</button></p>
</form>`,
  );
}
