import {
  Component,
  lazy,
  Suspense,
  useEffect,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';

/** The part's code could not be fetched. */
class PartNotLoaded extends Error {
  constructor(cause: unknown) {
    super('The code of an optional part could not be fetched.', { cause });
    this.name = 'PartNotLoaded';
  }
}

/**
 * Draws nothing once its part's code could not be fetched, and says so. Any other error is a bug
 * in the part, thrown on to the page's error boundary as before.
 */
class NothingIfNotLoaded extends Component<
  { children: ReactNode; onNotLoaded: () => void },
  { caught: { error: unknown } | null }
> {
  override state: { caught: { error: unknown } | null } = { caught: null };

  static getDerivedStateFromError(error: unknown) {
    return { caught: { error } };
  }

  override componentDidCatch(error: unknown) {
    if (error instanceof PartNotLoaded) this.props.onNotLoaded();
  }

  override render() {
    const { caught } = this.state;
    if (caught === null) return this.props.children;
    if (caught.error instanceof PartNotLoaded) return null;
    throw caught.error;
  }
}

/** While online, a part whose code failed is asked for again after 1, 2, 4, 8 and 16 s. */
const FIRST_RETRY_MS = 1000;
const TIMED_RETRIES = 5;

const lazyPart = <P extends object>(load: () => Promise<{ default: ComponentType<P> }>) =>
  lazy(() =>
    load().catch((err: unknown) => {
      throw new PartNotLoaded(err);
    }),
  );

/**
 * A part the page works without, its code fetched when first drawn: a part of the shell (the
 * upload queue's count, the bell's poller) or one a tap opens (the phone menu, the profile menu,
 * the search suggestions, the photo viewer, a cut-off text's tooltip). When the code cannot be
 * fetched (offline on a first visit, before the service worker holds the app's files) the part
 * draws nothing instead of taking the page down with it (the offline banner says why), and is
 * asked for again when the browser is back online (and, online, a few times after a pause). An
 * error the part itself throws still reaches the page's error boundary. Its props pass through.
 */
export function optionalPart(load: () => Promise<{ default: ComponentType }>): ComponentType;
export function optionalPart<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): ComponentType<P>;
export function optionalPart<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): ComponentType<P> {
  // One lazy component for every instance, so a part mounted again (a tooltip, a menu) draws at
  // once; a new one after a failed load, because React keeps a lazy component's failure for good.
  let current = lazyPart(load);
  function OptionalPart(props: P) {
    const [attempt, setAttempt] = useState(0);
    const [Part, setPart] = useState(() => current);
    const [failed, setFailed] = useState(false);

    useEffect(() => {
      if (!failed) return;
      const retry = () => {
        // The first instance to ask again makes the new lazy component; the others take it.
        if (Part === current) current = lazyPart(load);
        setPart(() => current);
        setAttempt((n) => n + 1);
        setFailed(false);
      };
      window.addEventListener('online', retry);
      // Online already (the signal came back before the failure was seen here, or the file
      // failed for another reason): asked again after a pause that doubles, a few times.
      const timer =
        navigator.onLine && attempt < TIMED_RETRIES
          ? window.setTimeout(retry, FIRST_RETRY_MS * 2 ** attempt)
          : undefined;
      return () => {
        window.removeEventListener('online', retry);
        window.clearTimeout(timer);
      };
    }, [failed, Part, attempt]);

    if (failed) return null;
    return (
      <NothingIfNotLoaded key={attempt} onNotLoaded={() => setFailed(true)}>
        <Suspense fallback={null}>
          <Part {...props} />
        </Suspense>
      </NothingIfNotLoaded>
    );
  }
  return OptionalPart;
}
