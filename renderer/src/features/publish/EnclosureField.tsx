/**
 * The post's enclosure: a URL (the core fills type and length by HEAD), or a local file picked or
 * dropped anywhere on the composer (the drop itself is handled by the composer; this shows it).
 */
import { useRef } from 'react';
import { DRAFT_FILE_MAX_BYTES, type DroppedFile, formatBytes } from './draft';

interface Props {
  url: string;
  file: DroppedFile | null;
  onUrl(url: string): void;
  onFile(file: File): void;
  onClearFile(): void;
}

export function EnclosureField({ url, file, onUrl, onFile, onClearFile }: Props) {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <div className="composer-enclosure">
      {file ? (
        <p className="composer-file" data-testid="composer-file">
          {file.type?.startsWith('image/') && (
            <img className="composer-thumb" src={`data:${file.type};base64,${file.dataBase64}`} alt="" />
          )}
          <span>
            Attached: <strong>{file.fileName}</strong> ({formatBytes(file.size)}), hosted by Tidings
            {file.size > DRAFT_FILE_MAX_BYTES && ' (too large to keep in the draft: it goes out with Post)'}
          </span>
          <button type="button" className="link-button danger" onClick={onClearFile}>
            Remove
          </button>
        </p>
      ) : (
        <div className="composer-enclosure-row">
          <label className="composer-field">
            <span>Enclosure</span>
            <input
              type="url"
              inputMode="url"
              placeholder="https://… a photo, audio or video (or drop a file here)"
              value={url}
              onChange={(e) => onUrl(e.target.value)}
              data-testid="composer-enclosure-url"
            />
          </label>
          <button type="button" onClick={() => picker.current?.click()}>
            Choose file…
          </button>
          <input
            ref={picker}
            type="file"
            hidden
            accept="image/*,audio/*,video/*"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) onFile(f);
              e.target.value = '';
            }}
            data-testid="composer-file-input"
          />
        </div>
      )}
    </div>
  );
}
