import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './module-graph';

const root = path.resolve(import.meta.dirname, '../..');

describe('the import graph', () => {
  it('has no cycle among the files of functions, shared, infra and the web app', () => {
    // Prepare
    const graph = importGraph(root, ['functions', 'shared', 'infra', 'web/src']);

    // Act
    const cycles = importCycles(graph).map((chain) => chain.join(' -> '));

    // Assess
    expect(cycles).toEqual([]);
  });

  it('reads every kind of import a file can name, types included and written across lines', () => {
    // Prepare
    const dir = mkdtempSync(path.join(tmpdir(), 'import-graph-'));
    const files: Record<string, string> = {
      'src/importer.ts': [
        "import { plain } from './plain';",
        "import type { OnlyAType } from './type-only';",
        'import {',
        '  spread,',
        "} from './spread';",
        "export { again } from './exported';",
        "export * as everything from './everything';",
        "import './side-effect.js';",
        "import { fromFolder } from './folder';",
        "import { View } from './view';",
        "const later = () => import('./dynamic');",
        "type Env = typeof import('./typeof');",
        "const quoted = \"import { no } from './in-a-string'\";",
        "// import { no } from './in-a-comment';",
        "import { readFileSync } from 'node:fs';",
      ].join('\n'),
      'src/folder/index.ts': '',
      'src/view.tsx': '',
      ...Object.fromEntries(['plain', 'type-only', 'spread', 'exported', 'everything', 'side-effect', 'dynamic', 'typeof', 'in-a-string', 'in-a-comment'].map((name) => [`src/${name}.ts`, ''])),
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }

    // Act
    const imported = importGraph(dir, ['src']).get('src/importer.ts');

    // Assess
    expect([...(imported ?? [])].sort()).toEqual(
      ['dynamic.ts', 'everything.ts', 'exported.ts', 'folder/index.ts', 'plain.ts', 'side-effect.ts', 'spread.ts', 'type-only.ts', 'typeof.ts', 'view.tsx'].map((file) => `src/${file}`),
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it('names each loop as the chain of files that closes it', () => {
    // Prepare
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts', 'c.ts']],
      ['c.ts', ['d.ts']],
      ['d.ts', ['b.ts']],
      ['e.ts', ['a.ts']],
    ]);

    // Act
    const cycles = importCycles(graph);

    // Assess
    expect(cycles).toEqual([
      ['a.ts', 'b.ts', 'a.ts'],
      ['c.ts', 'd.ts', 'b.ts', 'c.ts'],
    ]);
  });
});
