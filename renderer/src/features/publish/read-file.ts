/** A local file as base64 (no data: prefix), so a dropped photo crosses IPC/HTTP inside JSON. */
import type { DroppedFile } from './draft';

/**
 * The largest file the composer sends. Browser mode carries commands over HTTP with a 10 MB body
 * cap (base64 adds a third): 7 MB fits. Electron's IPC has no such cap; 200 MB is the core's own.
 */
export function maxEnclosureBytes(transport: 'electron' | 'browser'): number {
  return transport === 'browser' ? 7 * 1024 * 1024 : 200 * 1024 * 1024;
}

const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

export function readDroppedFile(file: File, maxBytes: number): Promise<DroppedFile> {
  if (file.size > maxBytes) {
    return Promise.reject(
      new Error(
        `${file.name} is ${mb(file.size)}; files up to ${mb(maxBytes)} can be attached here. ` +
          'Put it online and give its address as the enclosure instead.',
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () =>
      reject(new Error(`Could not read ${file.name}: ${reader.error?.message ?? 'unknown error'}`));
    reader.onload = () => {
      const url = String(reader.result);
      const comma = url.indexOf(',');
      resolve({
        fileName: file.name,
        dataBase64: comma >= 0 ? url.slice(comma + 1) : '',
        size: file.size,
        type: file.type,
      });
    };
    reader.readAsDataURL(file);
  });
}
