/**
 * The files of what was dropped: plain files as they are, and a dropped folder walked recursively
 * (DataTransfer.files lists a folder as one empty entry; its contents come from webkitGetAsEntry).
 */
export async function droppedFiles(dt: DataTransfer): Promise<{ file: File; path: string }[]> {
  const entries = Array.from(dt.items, (i) => i.webkitGetAsEntry?.() ?? null);
  if (!entries.some((e) => e?.isDirectory)) return Array.from(dt.files, (file) => ({ file, path: file.name }));
  const out: { file: File; path: string }[] = [];
  const walk = async (e: FileSystemEntry): Promise<void> => {
    // The path inside what was dropped: two files of one name in two folders are then told apart.
    if (e.isFile) out.push({ file: await new Promise<File>((res, rej) => (e as FileSystemFileEntry).file(res, rej)), path: e.fullPath.replace(/^\//, '') });
    else if (e.isDirectory) {
      const reader = (e as FileSystemDirectoryEntry).createReader();
      // readEntries returns the entries in batches until an empty one.
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        for (const child of batch) await walk(child);
      }
    }
  };
  for (const e of entries) if (e) await walk(e);
  return out;
}

/** The folder the files were picked from (their paths' common first part), else how many were picked. */
export function folderOf(paths: string[]): string {
  const first = paths.map((p) => (p.includes('/') ? p.split('/')[0]! : null));
  return first[0] && first.every((f) => f === first[0]) ? first[0] : `${paths.length} picked files`;
}
