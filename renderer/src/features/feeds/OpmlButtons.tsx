import { type ChangeEvent, useRef, useState } from 'react';
import { DownloadIcon, UploadIcon } from '../../components/icons';
import { saveFile } from '../../lib/save-file';
import { useApp } from '../../store/context';

export const OPML_FILE_NAME = 'tidings-subscriptions.opml';

/** Import subscriptions from an OPML file; export them as one. */
export function OpmlButtons() {
  const importOpml = useApp((s) => s.importOpml);
  const exportOpml = useApp((s) => s.exportOpml);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setBusy(true);
    try {
      await importOpml(await file.text());
    } finally {
      setBusy(false);
    }
  }

  async function onExport() {
    const text = await exportOpml();
    if (text === null) return;
    saveFile(new Blob([text], { type: 'text/x-opml;charset=utf-8' }), OPML_FILE_NAME);
  }

  return (
    <div className="opml-buttons">
      <button type="button" className="ghost" disabled={busy} onClick={() => fileInput.current?.click()}>
        <UploadIcon /> {busy ? 'Importing…' : 'Import OPML'}
      </button>
      <button type="button" className="ghost" onClick={() => void onExport()} data-testid="export-opml">
        <DownloadIcon /> Export OPML
      </button>
      <input
        ref={fileInput}
        type="file"
        accept=".opml,.xml,text/xml,text/x-opml,application/xml"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="OPML file to import"
        onChange={(e) => void onFile(e)}
        data-testid="import-opml-input"
      />
    </div>
  );
}
