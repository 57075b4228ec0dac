/** What a route shows while its code loads. */
export function PageLoading() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 text-center text-slate-200" role="status">
      Loading…
    </div>
  );
}
