/** A file system error as the few words a person needs ("no such file"), never Node's errno line. */
export function fsErrorReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of that path is a file, not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EEXIST':
      return 'a file is in the way';
    case 'ENOSPC':
      return 'the disk is full';
    default:
      return e instanceof Error ? e.message : String(e);
  }
}
