import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run cfn-lint [-- <region> ...]`: synthesizes the stack as `cdk synth` does (infra/app.ts,
 * cdk.json's context, cdk-nag included) and runs AWS's cfn-lint over every template, parent and
 * nested, against each region's CloudFormation specification. A resource type or property one
 * region's CloudFormation lacks passes `cdk synth` and fails only at deploy, there.
 *
 * Two configurations are linted: the defaults, and every optional resource on (alarm mail, tracing,
 * detailed metrics, WAF, mail). Bundling is skipped and the web app is a one-file folder: both only
 * change asset hashes, which CloudFormation reads as strings.
 *
 * Exits 1 on any error (E rules) in any region, 2 when cfn-lint is not installed (`pip install
 * cfn-lint`); warnings are printed and counted, never fatal. Not part of `npm test`, since a fresh
 * machine has no cfn-lint: the runbook says when to run it.
 */

/** The regions the runbook recommends deploying to: us-east-1, and a region elsewhere with certificateArn and webAclArn. */
export const LINTED_REGIONS = ['us-east-1', 'eu-west-1'] as const;

const configurations: Record<string, Record<string, unknown>> = {
  defaults: {},
  'everything on': {
    alarmEmail: 'ops@example.com',
    tracing: 'true',
    detailedMetrics: 'true',
    wafRateLimit: '1000',
    mailDomain: 'mail.example.com',
  },
};

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

interface Finding {
  file: string;
  line: string;
  rule: string;
  message: string;
}

function cfnLintVersion(): string | undefined {
  const out = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : undefined;
}

/** Synthesizes the app into `outdir` as the CDK CLI runs it (cdk.json: tsx infra/app.ts), with extra context. */
function synth(outdir: string, webAssetPath: string, context: Record<string, unknown>): void {
  const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
  const out = spawnSync(tsx, [join(repoRoot, 'infra', 'app.ts')], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: {
      ...process.env,
      CDK_OUTDIR: outdir,
      CDK_CONTEXT_JSON: JSON.stringify({ ...context, webAssetPath, 'aws:cdk:bundling-stacks': [] }),
    },
  });
  if (out.status !== 0) {
    process.stderr.write(out.stdout + out.stderr);
    throw new Error(`synth failed (exit ${out.status})`);
  }
}

/** cfn-lint's findings for the templates in `outdir`, in one region. */
function lint(outdir: string, region: string): Finding[] {
  const templates = readdirSync(outdir).filter((f) => f.endsWith('.template.json')).map((f) => join(outdir, f));
  const out = spawnSync('cfn-lint', ['--format', 'parseable', '--regions', region, '--', ...templates], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  // Exit codes are a bitmask of what was found (2 errors, 4 warnings, 8 informational); 1 is cfn-lint failing.
  if (out.status === null || out.status === 1 || out.status > 14) {
    process.stderr.write(out.stdout + out.stderr);
    throw new Error(`cfn-lint failed to run (exit ${out.status})`);
  }
  return out.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      // <file>:<line>:<column>:<end line>:<end column>:<rule>:<message>
      const [file = '', at = '', , , , rule = '', ...message] = line.split(':');
      return { file: file.replace(`${outdir}/`, ''), line: at, rule, message: message.join(':') };
    });
}

function main(): number {
  const version = cfnLintVersion();
  if (!version) {
    console.error('cfn-lint is not installed: pip install cfn-lint (or pipx install cfn-lint), then run this again.');
    return 2;
  }
  const regions = process.argv.slice(2).length ? process.argv.slice(2) : [...LINTED_REGIONS];
  const work = mkdtempSync(join(tmpdir(), 'marketplace-cfn-lint-'));
  let errors = 0;
  try {
    const web = join(work, 'web');
    mkdirSync(web);
    writeFileSync(join(web, 'index.html'), '<!doctype html>');
    for (const [name, context] of Object.entries(configurations)) {
      const outdir = join(work, name.replace(/\W+/g, '-'));
      synth(outdir, web, context);
      for (const region of regions) {
        const findings = lint(outdir, region);
        const count = (kind: string) => findings.filter((f) => f.rule.startsWith(kind)).length;
        console.log(`${version}, ${name}, ${region}: ${count('E')} errors, ${count('W')} warnings, ${count('I')} informational`);
        // Errors one by one; a warning repeated on many resources (W3005 on every role a function
        // waits for) once, with its count and its first instance.
        for (const f of findings.filter((f) => f.rule.startsWith('E'))) console.log(`  ${f.rule} ${f.file}:${f.line} ${f.message}`);
        const warnings = new Map<string, Finding[]>();
        for (const f of findings.filter((f) => !f.rule.startsWith('E'))) warnings.set(f.rule, [...(warnings.get(f.rule) ?? []), f]);
        for (const [rule, [first, ...more]] of warnings) {
          console.log(`  ${rule} ${first!.file}:${first!.line} ${first!.message}${more.length ? ` (and ${more.length} more like it)` : ''}`);
        }
        errors += count('E');
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return errors ? 1 : 0;
}

process.exitCode = main();
