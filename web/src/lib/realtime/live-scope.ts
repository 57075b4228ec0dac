/**
 * Jobs whose live events the current screen already turns into its own toasts (the customer's
 * request list). A `notification` about one of them is kept in the bell but not toasted again:
 * only one toast shows at a time, and the second would only replace the first.
 */
const held = new Map<string, number>();

export function holdLiveScope(jobIds: readonly string[]): () => void {
  const ids = [...new Set(jobIds)];
  for (const id of ids) held.set(id, (held.get(id) ?? 0) + 1);
  return () => {
    for (const id of ids) {
      const left = (held.get(id) ?? 1) - 1;
      if (left > 0) held.set(id, left);
      else held.delete(id);
    }
  };
}

export function isLiveScoped(jobId: string | null | undefined): boolean {
  return Boolean(jobId && held.has(jobId));
}
