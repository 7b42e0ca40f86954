import { Component, type ReactNode } from 'react';

/** A view that fails shows what failed instead of blanking the page; the rest of the app (and the text) stays. */
export class ErrorBoundary extends Component<{ name: string; children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <section className="panel" role="alert">
        <p className="error">
          The {this.props.name} view failed: {this.state.error.message}
        </p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          try again
        </button>
      </section>
    );
  }
}
