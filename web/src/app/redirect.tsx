import { Navigate, useLocation } from 'react-router';

/** A permanent move to another route that keeps the query string and hash. */
export function RedirectTo({ to }: { to: string }) {
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: to, search, hash }} replace />;
}
