/** What a shared blogroll leaves out: feeds on this machine or the local network. */
import { isIP } from 'node:net';
import { classifyAddress } from '../net/address-class.ts';

export function isLoopbackOrPrivateUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return true;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  return isIP(host) !== 0 && classifyAddress(host) !== 'public';
}
