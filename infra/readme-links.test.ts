import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The READMEs are the map of the repository: the root one points at each area's notes, and those
 * point at each other and at the code. A folder renamed or a file moved leaves a link pointing at
 * nothing, and nobody notices until a reader follows it; this test notices first. Links leaving
 * the repository (https:, mailto:) are not followed: they would make the suite depend on the network.
 */

const root = path.resolve(__dirname, '..');

/** Folders that hold what a build or install made, not what we wrote. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'cdk.out', 'dist', '.git', '.data', '.bench', '.test-data', '.scratch']);

/** Every Markdown file under `dir`, as absolute paths. */
function markdownFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) found.push(...markdownFiles(path.join(dir, entry.name)));
    } else if (entry.isFile() && entry.name.endsWith('.md')) {
      found.push(path.join(dir, entry.name));
    }
  }
  return found.sort();
}

interface Link {
  target: string;
  line: number;
}

/**
 * The link targets written in a Markdown text: inline links and images `[text](target)` and
 * reference definitions `[name]: target`. What sits in fenced code blocks and code spans is code,
 * not a link, so it is left out (a README may quote `[a](b)` as an example).
 */
function linksIn(markdown: string): Link[] {
  const links: Link[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((raw, index) => {
    const fenceMark = /^\s*(```|~~~)/.exec(raw)?.[1];
    if (fenceMark) {
      if (fence === undefined) fence = fenceMark;
      else if (fence === fenceMark) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const line = raw.replace(/`+[^`]*`+/g, '');
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/.exec(line);
    if (definition) links.push({ target: definition[1]!, line: index + 1 });
    for (const match of line.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1]!, line: index + 1 });
    }
  });
  return links;
}

/** Whether a target leaves the repository (a scheme such as https: or mailto:, or a protocol-relative address). */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/**
 * The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces
 * turned to hyphens, and a repeated heading numbered (`-1`, `-2`, …).
 */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const raw of markdown.split('\n')) {
    const fenceMark = /^\s*(```|~~~)/.exec(raw)?.[1];
    if (fenceMark) {
      if (fence === undefined) fence = fenceMark;
      else if (fence === fenceMark) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    if (!heading) continue;
    const text = heading[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[`*_]/g, '')
      .toLowerCase();
    const slug = text.replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/**
 * What is wrong with one relative link of `file`, or undefined when it resolves: the path must name
 * an existing file or folder, and an anchor into a Markdown file must name one of its headings.
 */
function problemWith(file: string, target: string): string | undefined {
  const [rawPath = '', anchor] = target.split('#', 2);
  let linked: string;
  try {
    linked = decodeURIComponent(rawPath.split('?')[0]!);
  } catch {
    return `"${target}" is not a decodable address`;
  }
  const resolved = linked === '' ? file : linked.startsWith('/') ? path.join(root, linked) : path.resolve(path.dirname(file), linked);
  if (!existsSync(resolved)) return `"${target}" names nothing: ${path.relative(root, resolved)} does not exist`;
  if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile()) {
    if (!headingAnchors(readFileSync(resolved, 'utf8')).has(anchor.toLowerCase())) {
      return `"${target}" names no heading of ${path.relative(root, resolved)}`;
    }
  }
  return undefined;
}

/** Every broken relative link of the Markdown files under `dir`, as "file:line: problem". */
function brokenLinks(dir: string): string[] {
  const broken: string[] = [];
  for (const file of markdownFiles(dir)) {
    for (const { target, line } of linksIn(readFileSync(file, 'utf8'))) {
      if (target === '' || isExternal(target)) continue;
      const problem = problemWith(file, target);
      if (problem) broken.push(`${path.relative(root, file)}:${line}: ${problem}`);
    }
  }
  return broken;
}

describe("the repository's Markdown links", () => {
  it('finds the root README and every area README among the files it checks', () => {
    // Prepare
    const expected = ['README.md', 'functions/README.md', 'functions/common/README.md', 'functions/jobs/README.md', 'infra/RUNBOOK.md'];

    // Act
    const files = markdownFiles(root).map((f) => path.relative(root, f));

    // Assess
    expect(files).toEqual(expect.arrayContaining(expected));
    expect(files.some((f) => f.split(path.sep).includes('node_modules'))).toBe(false);
  });

  it('resolves every relative link to a file or folder that exists, and every anchor to a heading', () => {
    // Prepare: the whole repository as it is on disk

    // Act
    const broken = brokenLinks(root);

    // Assess
    expect(broken).toEqual([]);
  });
});

describe('reading links out of Markdown', () => {
  it('takes inline links, images and reference definitions, and leaves code and external addresses out', () => {
    // Prepare
    const markdown = [
      'See [the jobs](functions/jobs/README.md) and ![a picture](web/public/icon.png "Icon").',
      'Quoted: `[not a link](nowhere.md)`.',
      '```md',
      '[inside a fence](nowhere-either.md)',
      '```',
      '[runbook]: infra/RUNBOOK.md',
      'Out: [Stripe](https://stripe.com) and [mail](mailto:ops@fixly.app).',
    ].join('\n');

    // Act
    const links = linksIn(markdown);

    // Assess
    expect(links).toEqual([
      { target: 'functions/jobs/README.md', line: 1 },
      { target: 'web/public/icon.png', line: 1 },
      { target: 'infra/RUNBOOK.md', line: 6 },
      { target: 'https://stripe.com', line: 7 },
      { target: 'mailto:ops@fixly.app', line: 7 },
    ]);
    expect(links.filter((l) => isExternal(l.target)).map((l) => l.target)).toEqual(['https://stripe.com', 'mailto:ops@fixly.app']);
  });

  it('gives headings the anchors GitHub gives them, numbering a repeated one', () => {
    // Prepare
    const markdown = ['# Fixly — on-demand home services', '## Who may do what', '## Notes', '## Notes', '```', '# not a heading', '```'].join('\n');

    // Act
    const anchors = headingAnchors(markdown);

    // Assess
    expect([...anchors]).toEqual(['fixly--on-demand-home-services', 'who-may-do-what', 'notes', 'notes-1']);
  });
});

describe('judging one link', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'readme-links-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts a file, a folder and a heading that exist, and names what is missing otherwise', () => {
    // Prepare
    mkdirSync(path.join(dir, 'area'));
    writeFileSync(path.join(dir, 'area', 'README.md'), '# Area\n\n## Offers and expiry\n');
    const readme = path.join(dir, 'README.md');
    writeFileSync(readme, '');

    // Act
    const verdicts = {
      file: problemWith(readme, 'area/README.md'),
      folder: problemWith(readme, 'area/'),
      heading: problemWith(readme, 'area/README.md#offers-and-expiry'),
      missingFile: problemWith(readme, 'area/gone.ts'),
      missingHeading: problemWith(readme, 'area/README.md#strikes'),
    };

    // Assess
    expect(verdicts.file).toBeUndefined();
    expect(verdicts.folder).toBeUndefined();
    expect(verdicts.heading).toBeUndefined();
    expect(verdicts.missingFile).toMatch(/does not exist/);
    expect(verdicts.missingHeading).toMatch(/names no heading/);
  });
});
