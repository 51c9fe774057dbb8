/** A local file as base64 (no data: prefix), so a dropped photo crosses IPC/HTTP inside JSON. */
import type { DroppedFile } from './draft';

/** Larger files are refused here with a reason, before any bytes travel. */
export const MAX_ENCLOSURE_BYTES = 50 * 1024 * 1024;

export function readDroppedFile(file: File): Promise<DroppedFile> {
  if (file.size > MAX_ENCLOSURE_BYTES) {
    return Promise.reject(
      new Error(`${file.name} is ${Math.round(file.size / 1024 / 1024)} MB; the limit for a file is 50 MB.`),
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
