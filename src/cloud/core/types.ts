/**
 * The shapes the core is asked in and answers with, whichever door asked: a registration's
 * parameters, a saveRss call's, the success/message pair every rssCloud answer carries, and the
 * protocols a subscriber can be called back by. A leaf: the doors build these, the core takes
 * them, the stores keep the protocol.
 */

export type NotifyProtocol = 'http-post' | 'https-post' | 'xml-rpc';

export interface PleaseNotifyParams {
  protocol: NotifyProtocol;
  /** The XML-RPC method to call back; null for http-post/https-post. */
  notifyProcedure: string | null;
  /** Where notifications go; null when the parts do not make a URL (the handler test then fails). */
  callbackUrl: string | null;
  /** A domain was named: REST callbacks are verified by a GET challenge, not a test POST. */
  diffDomain: boolean;
  /** The feeds, in the order given, without duplicates. */
  urls: string[];
}

export interface SaveRssParams {
  username: string;
  password: string;
  /** The feed text; a base64 parameter is read as UTF-8. */
  text: string;
}

export interface Outcome {
  success: boolean;
  msg: string;
}

/** A WebSub subscription asked for (verified or not yet). */
export interface NewWebSub {
  feedUrl: string;
  callbackUrl: string;
  secret: string | null;
  leaseSeconds: number;
}
