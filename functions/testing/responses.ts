import * as z from 'zod/mini';
import type { RouteDef } from '../../shared/routes';
import { responseSchemas } from '../../shared/schemas/responses';

/**
 * What a route's answer breaks of its contract: a 2xx body that its response schema (shared/routes.ts
 * `response`, shared/schemas/responses.ts) refuses, each problem with its path. Answers are checked
 * here, in the tests, and never at run time: every call would pay for it.
 */
export function contractProblems(route: Pick<RouteDef, 'name' | 'response'>, status: number, body: unknown): string[] {
  if (status < 200 || status > 299) return [];
  if (!route.response) return [`${route.name} names no response schema`];
  const result = z.safeParse(responseSchemas[route.response], body);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${described(issue)}`);
}

/** An issue in words (zod/mini carries no messages of its own: "Invalid input" says nothing). */
function described(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}, got ${issue.input === null ? 'null' : typeof issue.input}`;
    case 'unrecognized_keys':
      return `a field the schema does not name: ${issue.keys.join(', ')}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(issue.input)}`;
    case 'invalid_union':
      return 'matches none of the schema\'s choices';
    default:
      return issue.message;
  }
}

/** Fails with the route, the schema and every problem when a 2xx answer breaks its contract. */
export function assertAnswersItsContract(route: Pick<RouteDef, 'name' | 'response'>, status: number, body: unknown): void {
  const problems = contractProblems(route, status, body);
  if (problems.length) {
    throw new Error(`${route.name} answered ${status} with a body its response schema (${route.response ?? 'none'}) refuses:\n  ${problems.join('\n  ')}`);
  }
}
