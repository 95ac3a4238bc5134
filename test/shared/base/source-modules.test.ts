import path from 'node:path';
import { sourceModulesIn } from '../../../shared/base/source-modules';

describe('sourceModulesIn', () => {
  it('loads every TypeScript module of a folder with its file name, in file-name order', () => {
    const loaded = sourceModulesIn<{ tables: unknown }>(
      path.join(__dirname, '..', '..', '..', 'shared', 'properties', 'catalogs'),
    );
    const files = loaded.map(({ file }) => file);

    expect(files).toEqual([...files].sort());
    expect(files).toContain('line-items.ts');
    for (const { module } of loaded) expect(module.tables).toBeDefined();
  });

  it('reads the worked example folder of one type module', () => {
    const loaded = sourceModulesIn<{ objectType: { name: string } }>(
      path.join(__dirname, '..', 'objects', 'widget-types'),
    );

    expect(loaded.map(({ file, module }) => [file, module.objectType.name])).toEqual([['widgets.ts', 'widgets']]);
  });
});
