import { readdirSync } from 'node:fs';
import path from 'node:path';

export const projectRoot = path.resolve(__dirname, '..', '..');

/** The TypeScript files under a folder of the project, as paths from its root; generated ones left out. */
export function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(projectRoot, directory), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes('generated'))
    .map((entry) => path.relative(projectRoot, path.join(entry.parentPath, entry.name)));
}
