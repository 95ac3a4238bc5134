import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Every TypeScript module of a folder, loaded from source (tests, the local runtime, the build step),
 * with its file name, in file-name order: how the folders of standard types and of catalog data are
 * read. A deployed bundle never calls this; it reads what bin/build-validators.ts generates.
 */
export function sourceModulesIn<Module>(dir: string): { file: string; module: Module }[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => ({ file, module: require(path.join(dir, file)) as Module }));
}
