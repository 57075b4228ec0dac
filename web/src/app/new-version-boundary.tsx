import { Component, type ReactNode } from 'react';
import { NewVersionPage } from '../features/app-update/new-version-page';
import { isChunkLoadError, reloadForNewVersion } from '../lib/new-version';

interface Props {
  children: ReactNode;
  /** A new value (the path, on navigation) clears a shown page, so the next screen can try. */
  resetKey?: string;
}

interface State {
  error: unknown;
  resetKey: string | undefined;
}

/**
 * Catches a lazy screen (or a lazy part of the frame) whose chunk could not be loaded: the page
 * reloads itself once for the new release (lib/new-version.ts), and meanwhile, or when it already
 * did, shows "A new version of Fixly is available" with a Reload button. Any other error goes on
 * up as before: this boundary hides nothing but a missing chunk.
 */
export class NewVersionBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown): void {
    if (isChunkLoadError(error)) reloadForNewVersion();
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!isChunkLoadError(error)) throw error;
    return <NewVersionPage />;
  }
}
