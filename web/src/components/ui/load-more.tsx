import { Button } from './button';

/** What "Load more" needs of a paged list (TanStack Query's infinite query result). */
export interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** The next page of a list, while there is one; `label` names the list ("Load more jobs"). */
export function LoadMore({ list, label }: { list: PagedList; label: string }) {
  if (!list.hasNextPage) return null;
  return (
    <div className="mt-4 flex justify-center">
      <Button variant="outline" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage} aria-busy={list.isFetchingNextPage}>
        {list.isFetchingNextPage ? 'Loading…' : label}
      </Button>
    </div>
  );
}
