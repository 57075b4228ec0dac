import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from './stack';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-stack-files-'));
let stack: LocalStack | undefined;

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start: the files it leaves in the data folder', () => {
  it("writes stack.json, which holds the local Stripe's keys, readable by its owner only, even over an older readable one", async () => {
    // Prepare: a stack.json a killed run left behind, readable by everyone
    const stackFile = path.join(dataDir, 'stack.json');
    writeFileSync(stackFile, '{}', { mode: 0o644 });

    // Act
    stack = await startLocalStack({ port: 0, dataDir, web: false });

    // Assess
    const written = JSON.parse(readFileSync(stackFile, 'utf8')) as { url: string; stripe?: { secretKey: string; webhookSecret: string } };
    expect(written.url).toBe(stack.url);
    expect(written.stripe?.secretKey).toMatch(/^sk_test_local_/);
    expect(written.stripe?.webhookSecret).toMatch(/^whsec_local_/);
    expect(statSync(stackFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, 'stripe', 'keys.json')).mode & 0o777).toBe(0o600);
  });
});
