// `mock --watch`: calls back once a burst of changes to a document's files has settled. Each file's
// folder is watched, not the file: an editor that saves by writing a new file and renaming it over
// the old one (vim, many IDEs) leaves a watch on the file itself watching nothing.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Quiet time after the last change before the callback: an editor's save is several events. */
export const SETTLE_MS = 100;

export interface FileWatcher {
  /** Watches these files instead (a reload may add or drop a referenced file). */
  watchOnly(files: readonly string[]): void;
  close(): void;
}

export function watchFiles(
  files: readonly string[],
  onChange: (file: string) => void,
  onError: (message: string) => void,
): FileWatcher {
  const folders = new Map<string, { watcher: FSWatcher; names: Set<string> }>();
  let timer: NodeJS.Timeout | undefined;
  let last = '';
  const changed = (file: string) => {
    last = file;
    clearTimeout(timer);
    timer = setTimeout(() => onChange(last), SETTLE_MS);
  };
  const watchOnly = (wanted: readonly string[]) => {
    const byFolder = new Map<string, Set<string>>();
    for (const file of wanted) {
      const folder = dirname(file);
      if (!byFolder.has(folder)) byFolder.set(folder, new Set());
      byFolder.get(folder)!.add(basename(file));
    }
    for (const [folder, entry] of folders) {
      if (byFolder.has(folder)) continue;
      entry.watcher.close();
      folders.delete(folder);
    }
    for (const [folder, names] of byFolder) {
      const entry = folders.get(folder);
      if (entry) {
        entry.names = names;
        continue;
      }
      try {
        const watcher = watch(folder, { persistent: false }, (_event, name) => {
          const current = folders.get(folder);
          if (name !== null && current?.names.has(String(name))) changed(`${folder}/${name}`);
        });
        watcher.on('error', (error) => onError(`cannot watch ${folder}: ${error.message}`));
        folders.set(folder, { watcher, names });
      } catch (error) {
        onError(`cannot watch ${folder}: ${(error as Error).message}`);
      }
    }
  };
  watchOnly(files);
  return {
    watchOnly,
    close() {
      clearTimeout(timer);
      for (const { watcher } of folders.values()) watcher.close();
      folders.clear();
    },
  };
}
