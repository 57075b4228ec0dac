import { afterAll, describe, expect, it } from 'vitest';
import { testSynth } from './synth';

const synths = testSynth();
afterAll(() => synths.cleanup());

describe('the Node the tests run on', () => {
  it("is the major version of the functions' Lambda runtime, so a dependency that needs it is tested as it is deployed", () => {
    // Prepare
    const { stack } = synths.synth({ stage: 'test' });
    const functions = [stack.functions, stack.timerFunctions, stack.socketFunctions, stack.streamFunctions].flatMap((byName) => Object.values(byName));

    // Act
    const runtimes = new Set(functions.map((fn) => fn.runtime.name));
    const major = process.versions.node.split('.')[0];

    // Assess
    expect([...runtimes]).toEqual([expect.stringMatching(/^nodejs\d+\.x$/)]);
    // npm's scripts find node_modules/.bin/node (the node-linux-* package) before any other node on PATH.
    expect(`nodejs${major}.x`, `tests ran on ${process.execPath} (${process.version})`).toBe([...runtimes][0]);
  });
});
