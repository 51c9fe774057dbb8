/** Hands a file to the browser to save: a download in browser mode, a save dialog in Electron. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // Long enough for the browser to have read a large file before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
