/**
 * The rssCloud doors: REST (`POST /pleaseNotify`, `POST /ping`, JSON answers for Accept:
 * application/json) and XML-RPC (`POST /RPC2`: rssCloud.hello, pleaseNotify and its 2003 name,
 * ping, saveRss, and weblogUpdates' two methods). Each request is read into the core's shape
 * (params.ts), checked against the caller's budget, handed to the core, and its outcome written
 * in the reference cloud's form (answers.ts).
 */
import { decodeMethodCallAsync } from '../../wire/xmlrpc.ts';
import { type CloudCore, unavailable } from '../core/core.ts';
import type { CloudLog } from '../core/log.ts';
import { messages } from '../core/messages.ts';
import type { SaveRssOutcome } from '../core/saverss.ts';
import type { SignalOutcome, SiteSignal } from '../core/site-changes.ts';
import type { SaveRssParams } from '../core/types.ts';
import { restAnswer, rpcAnswer, rpcFault } from './answers.ts';
import {
  parseRestPing,
  parseRestPleaseNotify,
  parseRpcPing,
  parseRpcPleaseNotify,
  parseRpcSaveRss,
} from './params.ts';
import { formOf } from './request.ts';
import { weblogUpdatesAnswer, weblogUpdatesSignal } from './weblog-updates.ts';

export interface RssCloudDoorDeps {
  core: Pick<CloudCore, 'pleaseNotify' | 'ping'>;
  log: CloudLog;
  /** XML-RPC bodies beyond this are refused by the decoder. */
  maxBodyBytes: number;
  /**
   * The work a request would make the cloud do, within the caller's limits? The refusal's
   * sentence when not (budget.ts); `urls` null for a ping.
   */
  refusal(source: string, urls: number | null): string | null;
  saveRss(params: SaveRssParams, req: Request): Promise<SaveRssOutcome>;
  siteChanged(signal: SiteSignal): Promise<SignalOutcome>;
}

/** Characters of an unknown method's name told back (the longest real one has 33). */
const MAX_NAME_SHOWN = 100;

const RPC_NAMES = {
  hello: 'rsscloud.hello',
  pleaseNotify: 'rsscloud.pleasenotify',
  pleaseNotify2003: 'xmlstoragesystem.rsspleasenotify',
  ping: 'rsscloud.ping',
  saveRss: 'rsscloud.saverss',
  weblogPing: 'weblogupdates.ping',
  weblogExtendedPing: 'weblogupdates.extendedping',
};

export async function handlePleaseNotify(
  d: RssCloudDoorDeps,
  req: Request,
  body: Buffer,
  source: string,
): Promise<Response> {
  const parsed = parseRestPleaseNotify(await formOf(req, body), source);
  const refused = parsed.ok ? d.refusal(source, parsed.value.urls.length) : null;
  const outcome = !parsed.ok
    ? { success: false, msg: parsed.message }
    : refused
      ? { success: false, msg: refused }
      : await d.core.pleaseNotify(parsed.value);
  if (!parsed.ok) d.log.add({ kind: 'subscribeFailed', detail: parsed.message });
  return restAnswer('notifyResult', outcome, req.headers.get('accept'));
}

export async function handlePing(
  d: RssCloudDoorDeps,
  req: Request,
  body: Buffer,
  source: string,
): Promise<Response> {
  const parsed = parseRestPing(await formOf(req, body));
  if (!parsed.ok) d.log.add({ kind: 'pingFailed', detail: parsed.message });
  const refused = parsed.ok ? d.refusal(source, null) : null;
  const outcome = !parsed.ok
    ? { success: false, msg: parsed.message }
    : refused
      ? { success: false, msg: refused }
      : await d.core.ping(parsed.value);
  return restAnswer('result', { success: outcome.success, msg: outcome.msg }, req.headers.get('accept'));
}

export async function handleRpc(
  d: RssCloudDoorDeps,
  req: Request,
  body: Buffer,
  source: string,
): Promise<Response> {
  // A slice at a time: a megabyte of XML-RPC (saveRss carries a whole feed) never holds up the
  // other callers for more than a few milliseconds at once.
  const call = await decodeMethodCallAsync(body, { maxBytes: d.maxBodyBytes });
  if (!call.ok) {
    d.log.add({ kind: 'xmlrpc', detail: call.error.message });
    return rpcFault(call.error.message);
  }
  const { methodName, params } = call.value;
  const name = methodName.toLowerCase();
  // The name as told back (a fault, the log): a caller's megabyte of name is not sent back whole.
  const shown = methodName.length > MAX_NAME_SHOWN ? `${methodName.slice(0, MAX_NAME_SHOWN)}...` : methodName;
  // saveRss parameters carry a password: only the method name is logged.
  d.log.add({
    kind: 'xmlrpc',
    detail: `${shown} (${params.length} parameter${params.length === 1 ? '' : 's'})`,
  });
  switch (name) {
    case RPC_NAMES.hello:
      return rpcAnswer(true);
    case RPC_NAMES.pleaseNotify:
    case RPC_NAMES.pleaseNotify2003: {
      const parsed = parseRpcPleaseNotify(params, source);
      if (!parsed.ok) return rpcFault(parsed.message);
      const refused = d.refusal(source, parsed.value.urls.length);
      if (refused) return rpcFault(refused);
      const outcome = await d.core.pleaseNotify(parsed.value);
      return outcome.success ? rpcAnswer(true) : rpcFault(outcome.msg);
    }
    case RPC_NAMES.ping: {
      const parsed = parseRpcPing(params);
      if (!parsed.ok) return rpcFault(parsed.message);
      const refused = d.refusal(source, null);
      if (refused) return rpcFault(refused);
      // As the reference cloud: the XML-RPC ping answers true whether or not the read worked
      // (only the cloud's own failure is a fault: nothing was read at all).
      const pinged = await d.core.ping(parsed.value);
      return pinged.unavailable ? rpcFault(pinged.msg) : rpcAnswer(true);
    }
    case RPC_NAMES.saveRss: {
      const parsed = parseRpcSaveRss(params);
      if (!parsed.ok) return rpcFault(parsed.message);
      const saved = await d
        .saveRss(parsed.value, req)
        .catch((e: unknown): SaveRssOutcome => ({ ok: false, message: unavailable(d.log, 'saveRss', e) }));
      return saved.ok ? rpcAnswer(saved.url) : rpcFault(saved.message);
    }
    case RPC_NAMES.weblogPing:
    case RPC_NAMES.weblogExtendedPing: {
      const signal = weblogUpdatesSignal(name === RPC_NAMES.weblogPing ? 'ping' : 'extendedping', params);
      if ('error' in signal) return rpcAnswer(weblogUpdatesAnswer({ ok: false, message: signal.error }));
      const refused = d.refusal(source, null);
      if (refused) return rpcAnswer(weblogUpdatesAnswer({ ok: false, message: refused }));
      return rpcAnswer(weblogUpdatesAnswer(await d.siteChanged(signal)));
    }
    default:
      return rpcFault(messages.notDefined(shown));
  }
}
