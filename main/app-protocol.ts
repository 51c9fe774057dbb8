/**
 * The app's own files on app://tidings/ (Electron's checklist prefers a custom protocol to file://:
 * a page on file:// could read any file). Served by the same function browser mode uses, which
 * refuses paths outside the renderer folder and adds the CSP to the page.
 */
import { protocol } from 'electron';
import { serveStatic } from '../src/browser-mode/static-files.ts';
import { APP_HOST, APP_SCHEME } from './policy.ts';

/** Before app 'ready'. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

export function serveAppFiles(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    try {
      const url = new URL(request.url);
      if (url.host !== APP_HOST || request.method !== 'GET') return notFound();
      return (await serveStatic(rendererDir, url.pathname)) ?? notFound();
    } catch {
      return notFound();
    }
  });
}

const notFound = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
