import { describe, expect, it } from 'vitest';
import { NODE_RUNTIME } from '../function-defaults';

describe('the Node the tests run on', () => {
  it("is the major version of the functions' Lambda runtime, so a dependency that needs it is tested as it is deployed", () => {
    // Prepare
    const deployed = NODE_RUNTIME.match(/^nodejs(\d+)\.x$/)?.[1];

    // Act
    const major = process.versions.node.split('.')[0];

    // Assess
    expect(deployed).toMatch(/^\d+$/);
    // npm's scripts find node_modules/.bin/node (the node-linux-* package) before any other node on PATH.
    expect(major, `tests ran on ${process.execPath} (${process.version})`).toBe(deployed);
  });
});
