/**
 * A backup file across the API, the way OPML crosses it (through commands, so IPC and HTTP carry
 * it alike), but in pieces: a backup can be far larger than one message may be. Downloads are
 * read piece by piece into a Blob the browser saves; uploads are sliced from the chosen File.
 */
import { type BackupReady, type TidingsApi, TRANSFER_PIECE_BYTES } from '../../../../src/app/api';
import { blobToBase64 } from '../../lib/blob-base64';

type Progress = (fraction: number) => void;

function value<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Reads a made backup from the core, then lets the core forget it. */
export async function downloadBackup(
  api: TidingsApi,
  ready: BackupReady,
  onProgress: Progress,
): Promise<Blob> {
  const pieces: Uint8Array<ArrayBuffer>[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const piece: { dataBase64: string; nextOffset: number | null } = value(
      await api.readTransfer(ready.transferId, offset),
    );
    pieces.push(fromBase64(piece.dataBase64));
    offset = piece.nextOffset;
    onProgress(offset === null ? 1 : offset / ready.size);
  }
  await api.discardTransfer(ready.transferId);
  return new Blob(pieces, { type: 'application/octet-stream' });
}

/** Sends a chosen file to the core; its transfer id, for previewRestore and restoreBackup. */
export async function uploadBackup(api: TidingsApi, file: Blob, onProgress: Progress): Promise<string> {
  const { transferId } = value(await api.startUpload(file.size));
  try {
    for (let offset = 0; offset < file.size; offset += TRANSFER_PIECE_BYTES) {
      const piece = await blobToBase64(file.slice(offset, offset + TRANSFER_PIECE_BYTES));
      value(await api.writeUpload(transferId, offset, piece));
      onProgress(Math.min(1, (offset + TRANSFER_PIECE_BYTES) / file.size));
    }
  } catch (e) {
    await api.discardTransfer(transferId);
    throw e;
  }
  return transferId;
}
