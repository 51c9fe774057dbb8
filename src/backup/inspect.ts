/**
 * Reading what a backup says about itself, and refusing it with the reason before anything is
 * done with it: not a backup, cut short, damaged, or made by a newer Tidings (a newer format, a
 * database further along than this Tidings knows, a part it does not know).
 */
import type { BackupFacts, BackupSecrets, DataSummary, SecretKind } from '../app/api.ts';
import { fail, ok, type Result, tidingsError } from '../common/errors.ts';
import { ContainerReader, FORMAT_NAME, type PartRecord, readHeader } from './container.ts';
import { DATABASES, databaseSpec, isSafeMediaName, MEDIA_PREFIX, newestSchema } from './layout.ts';
import { isSealedBox, type SealedBox } from './seal.ts';
import { EMPTY_SUMMARY } from './summary.ts';

export interface BackupInfo extends BackupFacts {
  backupId: string;
  /** The sealed secrets (mode 'sealed'). */
  box: SealedBox | null;
  parts: PartRecord[];
}

const damaged = (what: string) =>
  fail<never>(tidingsError('backup.damaged', `This backup is damaged: ${what}. Use another copy of it.`));
const newer = (what: string) =>
  fail<never>(
    tidingsError(
      'backup.newer',
      `This backup was made by a newer Tidings (${what}). Update Tidings, then restore it.`,
    ),
  );

/** Opens the backup for reading after every check of what it says; the caller closes it. */
export async function openBackup(
  file: string,
): Promise<Result<{ info: BackupInfo; reader: ContainerReader }>> {
  const header = await readHeader(file);
  if (!header.ok) return header;
  const opened = ContainerReader.open(file);
  if (!opened.ok) return opened;
  const reader = opened.value;
  const info = describe(reader, header.value.formatVersion, header.value.size);
  if (!info.ok) {
    reader.close();
    return info;
  }
  return ok({ info: info.value, reader });
}

/** What the backup holds (every check of openBackup, none of the parts' bytes read). */
export async function inspectBackup(file: string): Promise<Result<BackupInfo>> {
  const opened = await openBackup(file);
  if (!opened.ok) return opened;
  opened.value.reader.close();
  return ok(opened.value.info);
}

/** Everything inspectBackup checks, and every part's bytes read against its size and checksum. */
export async function verifyBackup(file: string): Promise<Result<BackupInfo>> {
  const opened = await openBackup(file);
  if (!opened.ok) return opened;
  const { info, reader } = opened.value;
  try {
    for (const part of info.parts) {
      const read = await reader.readPart(part, null);
      if (!read.ok) return read;
    }
    return ok(info);
  } finally {
    reader.close();
  }
}

function describe(reader: ContainerReader, formatVersion: number, size: number): Result<BackupInfo> {
  const m = reader.manifest;
  if (m.format !== FORMAT_NAME) return damaged('its manifest does not say it is a Tidings backup');
  if (m.formatVersion !== formatVersion) return damaged('its manifest and its header disagree on its format');
  if (typeof m.createdAt !== 'string' || typeof m.appVersion !== 'string' || typeof m.backupId !== 'string') {
    return damaged('its manifest lacks when and by what it was made');
  }
  const secrets = secretsOf(m.secrets);
  if (!secrets) return damaged('its manifest does not say how it holds secrets');
  for (const part of reader.parts) {
    const problem = partProblem(part);
    if (problem) return problem;
  }
  const required = DATABASES.filter((d) => d.required && !reader.parts.some((p) => p.name === d.part));
  if (required.length > 0) return damaged(`it holds no ${required.map((d) => d.file).join(', ')}`);
  return ok({
    backupId: m.backupId,
    createdAt: m.createdAt,
    appVersion: m.appVersion,
    formatVersion,
    size,
    summary: summaryOf(m.summary),
    secrets: { mode: secrets.mode, kinds: secrets.kinds },
    box: secrets.box,
    parts: reader.parts,
  });
}

function partProblem(part: PartRecord): Result<never> | null {
  if (!Number.isSafeInteger(part.size) || part.size < 0 || !/^[0-9a-f]{64}$/.test(part.sha256)) {
    return damaged(`the entry of ${part.name} is not readable`);
  }
  if (part.kind === 'sqlite') {
    const spec = databaseSpec(part.name);
    if (!spec) return newer(`it holds a database this Tidings does not know: ${part.name}`);
    const known = newestSchema(spec.migrations);
    if (part.schemaVersion === null || part.schemaVersion > known) {
      return newer(`its ${spec.file} is at schema ${part.schemaVersion}; this Tidings knows up to ${known}`);
    }
    return null;
  }
  if (part.kind === 'file' && part.name.startsWith(MEDIA_PREFIX)) {
    // A crafted backup must not write outside the media folder.
    return isSafeMediaName(part.name.slice(MEDIA_PREFIX.length))
      ? null
      : damaged(`it names a media file "${part.name.slice(0, 80)}" that is not a plain file name`);
  }
  return newer(`it holds a part this Tidings does not know: ${part.name.slice(0, 80)}`);
}

function secretsOf(v: unknown): (BackupSecrets & { box: SealedBox | null }) | null {
  if (!v || typeof v !== 'object') return null;
  const s = v as Record<string, unknown>;
  if (s.mode !== 'none' && s.mode !== 'sealed' && s.mode !== 'leftOut') return null;
  const kinds: SecretKind[] = Array.isArray(s.kinds)
    ? s.kinds
        .filter((k): k is SecretKind => typeof k?.label === 'string' && Number.isInteger(k?.count))
        .map((k) => ({ label: k.label, count: k.count }))
    : [];
  if (s.mode === 'sealed') return isSealedBox(s.box) ? { mode: 'sealed', kinds, box: s.box } : null;
  return { mode: s.mode, kinds, box: null };
}

function summaryOf(v: unknown): DataSummary {
  const out = { ...EMPTY_SUMMARY };
  if (v && typeof v === 'object') {
    for (const key of Object.keys(out) as (keyof DataSummary)[]) {
      const n = (v as Record<string, unknown>)[key];
      if (Number.isSafeInteger(n) && (n as number) >= 0) out[key] = n as number;
    }
  }
  return out;
}
