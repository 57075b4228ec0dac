import { describe, expect, it } from 'vitest';
import { startRow, startTable } from './start';

describe('the start comparison', () => {
  it('takes the median of each measure on its own and judges the first dev start against the production build', () => {
    // Prepare
    const production = startRow('production', [
      { firstPageMs: 3_000, usableMs: 400 },
      { firstPageMs: 3_400, usableMs: 600 },
      { firstPageMs: 3_200, usableMs: 500 },
    ]);
    const first = startRow('dev-first', [
      { firstPageMs: 3_300, usableMs: 5_000 },
      { firstPageMs: 3_100, usableMs: 4_000 },
      { firstPageMs: 3_500, usableMs: 4_500 },
    ]);
    const later = startRow('dev', [{ firstPageMs: 3_200, usableMs: 1_000 }]);

    // Act
    const table = startTable([production, first, later]);

    // Assess
    expect(production).toMatchObject({ firstPageMs: 3_200, usableMs: 500 });
    expect(table).toMatch(/\| npm start \(production build\)\s+\|\s+3\.20 s \|\s+0\.50 s \|\s+3\.70 s \| 0\.40 s, 0\.60 s, 0\.50 s/);
    expect(table).toMatch(/\| first dev start ÷ production\s+\|\s+1\.0× \|\s+9\.0× \|\s+2\.1× \| ≥ 5× to a usable screen: PASS/);
    expect(table).toMatch(/\| later dev start ÷ production\s+\|\s+1\.0× \|\s+2\.0× \|\s+1\.1× \| for information/);
  });

  it('says OVER when the production build is not 5× faster to a usable screen than a first dev start', () => {
    // Prepare
    const production = startRow('production', [{ firstPageMs: 3_000, usableMs: 1_000 }]);
    const first = startRow('dev-first', [{ firstPageMs: 3_000, usableMs: 4_000 }]);
    const later = startRow('dev', [{ firstPageMs: 3_000, usableMs: 1_500 }]);

    // Act
    const table = startTable([production, first, later]);

    // Assess
    expect(table).toContain('≥ 5× to a usable screen: **OVER**');
  });

  it('refuses to report a ratio with a side missing', () => {
    expect(() => startTable([startRow('production', [{ firstPageMs: 1, usableMs: 1 }])])).toThrow('needs the production build');
    expect(() => startRow('dev', [])).toThrow('No starts measured for dev');
  });
});
