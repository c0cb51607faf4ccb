import {
  Component,
  lazy,
  Suspense,
  useEffect,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';

/** Draws nothing once a child has thrown, and says so. */
class NothingOnError extends Component<
  { children: ReactNode; onError: () => void },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch() {
    this.props.onError();
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * A part of the shell that the page works without (the upload queue's count, the bell's poller),
 * its code fetched when first drawn. When the code cannot be fetched (offline on a first visit,
 * before the service worker holds the app's files) the part draws nothing instead of taking the
 * page down with it, and is asked for again when the browser is back online.
 */
export function optionalPart(load: () => Promise<{ default: ComponentType }>): ComponentType {
  function OptionalPart() {
    const [attempt, setAttempt] = useState(0);
    // One lazy component per attempt: React keeps a failed load's error for good.
    const [Part, setPart] = useState(() => lazy(load));
    const [failed, setFailed] = useState(false);

    useEffect(() => {
      if (!failed) return;
      const retry = () => {
        setPart(() => lazy(load));
        setAttempt((n) => n + 1);
        setFailed(false);
      };
      window.addEventListener('online', retry);
      return () => window.removeEventListener('online', retry);
    }, [failed]);

    if (failed) return null;
    return (
      <NothingOnError key={attempt} onError={() => setFailed(true)}>
        <Suspense fallback={null}>
          <Part />
        </Suspense>
      </NothingOnError>
    );
  }
  return OptionalPart;
}
