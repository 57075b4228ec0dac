import path from 'node:path';
import { afterEach, beforeAll, expect } from 'vitest';
import { refusal, touches, type Value } from './table-grant-rules';

/**
 * The vitest setup that checks the table grants while the handlers' tests run (the rules:
 * table-grant-rules.ts). Each command a handler sends is judged against its function's generated
 * patterns; a test whose handler went outside them fails after it, naming the key and the command.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');
const violations: string[] = [];

beforeAll(async () => {
  // Only the functions' own tests run handlers against the table.
  const testPath = expect.getState().testPath ?? '';
  if (!path.relative(repoRoot, testPath).startsWith(`functions${path.sep}`)) return;
  const [{ dynamo }, { currentFunctionName }] = await Promise.all([import('../../functions/common/clients'), import('../../functions/common/logger')]);
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const name = currentFunctionName();
      if (name) {
        const command = context.commandName ?? 'command';
        const found = touches(command, args.input as Record<string, Value>);
        if (found === 'scan') violations.push(`${name} sends a Scan, which no function is granted`);
        else for (const touch of found) {
          const why = refusal(name, command, touch);
          if (why) violations.push(why);
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'tableGrantCheck', override: true },
  );
});

afterEach(() => {
  const found = [...new Set(violations.splice(0))];
  expect(found, 'table commands outside the function grants the stack generates').toEqual([]);
});
