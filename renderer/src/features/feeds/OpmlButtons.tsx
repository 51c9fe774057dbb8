import { type ChangeEvent, useRef, useState } from 'react';
import { DownloadIcon, UploadIcon } from '../../components/icons';
import { saveFile } from '../../lib/save-file';
import { useApp } from '../../store/context';

export const OPML_FILE_NAME = 'tidings-subscriptions.opml';

/**
 * Import subscriptions from an OPML file: a button and the file picker it opens; once imported,
 * the river shows what came in (the store's importOpml). The sidebar's (OpmlButtons) and the
 * welcome page's (a plain button of its own label) are this one.
 */
export function ImportOpmlButton({
  label = 'Import OPML',
  ghost = true,
  icon = true,
  testId,
  inputTestId = 'import-opml-input',
}: {
  label?: string;
  /** The sidebar's quiet look; false: an ordinary button (the welcome page). */
  ghost?: boolean;
  icon?: boolean;
  testId?: string;
  inputTestId?: string;
}) {
  const importOpml = useApp((s) => s.importOpml);
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

  return (
    <>
      <button
        type="button"
        className={ghost ? 'ghost' : undefined}
        disabled={busy}
        onClick={() => fileInput.current?.click()}
        data-testid={testId}
      >
        {icon && <UploadIcon />} {busy ? 'Importing…' : label}
      </button>
      <input
        ref={fileInput}
        type="file"
        accept=".opml,.xml,text/xml,text/x-opml,application/xml"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="OPML file to import"
        onChange={(e) => void onFile(e)}
        data-testid={inputTestId}
      />
    </>
  );
}

/** The sidebar's foot: import subscriptions from an OPML file; export them as one. */
export function OpmlButtons() {
  const exportOpml = useApp((s) => s.exportOpml);

  async function onExport() {
    const text = await exportOpml();
    if (text === null) return;
    saveFile(new Blob([text], { type: 'text/x-opml;charset=utf-8' }), OPML_FILE_NAME);
  }

  return (
    <div className="opml-buttons">
      <ImportOpmlButton />
      <button type="button" className="ghost" onClick={() => void onExport()} data-testid="export-opml">
        <DownloadIcon /> Export OPML
      </button>
    </div>
  );
}
