/**
 * The reference cloud's sentences, word for word (RSSCLOUD.md "The cloud's side"): aggregators
 * show them to people and some compare them, so they are a wire contract, not copy to improve.
 */
export const messages = {
  missingParams: (names: readonly string[]) =>
    `The following parameters were missing from the request body: ${names.join(', ')}.`,
  noResources: 'No resources specified.',
  invalidProtocol: (protocol: string) =>
    `Can't accept the subscription because the protocol, <i>${protocol}</i>, is unsupported.`,
  subscriptionReadResource: (url: string) =>
    `The subscription was cancelled because there was an error reading the resource at URL ${url}.`,
  failedHandler: 'The subscription was cancelled because the call failed when we tested the handler.',
  pingReadResource: (url: string) =>
    `The ping was cancelled because there was an error reading the resource at URL ${url}.`,
  pingTooRecent: (minSeconds: number, agoSeconds: number) =>
    `Can't accept the request because the minimum seconds between pings is ${minSeconds} and you pinged us ${agoSeconds} seconds ago.`,
  // Limits the reference cloud lacks (issue 10), worded like its pingTooRecent sentence.
  tooManyResources: (max: number, asked: number) =>
    `Can't accept the request because the maximum number of resources per request is ${max} and you asked for ${asked}.`,
  overBudget: (perMinute: number, retryAfterSec: number) =>
    `Can't accept the request because the maximum number of reads and tests one caller may cause per minute is ${perMinute}; try again in ${retryAfterSec} ${retryAfterSec === 1 ? 'second' : 'seconds'}.`,
  notEnoughParams: (method: string) => `Can't call "${method}" because there aren't enough parameters.`,
  tooManyParams: (method: string) => `Can't call "${method}" because there are too many parameters.`,
  notDefined: (method: string) => `Can't make the call because "${method}" is not defined.`,
  subscribed:
    "Thanks for the registration. It worked. When the resource updates we'll notify you. Don't forget to re-register after 24 hours, your subscription will expire in 25. Keep on truckin!",
  pinged: 'Thanks for the ping.',
  // The cloud's own trouble (its database away): said without its cause, which is logged.
  unavailable:
    "Can't handle the request right now because the cloud is having trouble; please try again in a minute.",
  // saveRss exists only in the 2009 walkthrough: these sentences are ours.
  saveRssBadLogin: "Can't save the feed because the username or password is wrong.",
  saveRssNotFeed: (reason: string) => `Can't save the feed because it is not an RSS or Atom feed: ${reason}`,
  saveRssTooLarge: (maxBytes: number) => `Can't save the feed because it is larger than ${maxBytes} bytes.`,
} as const;

/** The reference cloud answers every XML-RPC failure with this fault code. */
export const FAULT_CODE = 4;
