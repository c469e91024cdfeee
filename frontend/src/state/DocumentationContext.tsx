import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { endpoints, type Api, type Endpoint } from '../data/api';
import { currentCodeBackground, subscribeCodeBackground } from '../lib/codeBackground';
import { initialState, reducer, type DocumentationState, type ResourceKey } from './documentation';

interface DocumentationContextValue {
  state: DocumentationState;
  /** Loads (or reloads) a resource. Never rejects: the outcome is in the state. */
  load: (key: ResourceKey) => Promise<void>;
  /** Saves a resource with the generic save call. Never rejects: the outcome is in the state. */
  save(key: ResourceKey, object: unknown): Promise<void>;
}

const DocumentationContext = createContext<DocumentationContextValue | null>(null);

const endpointOf: Record<ResourceKey, Endpoint> = endpoints;

export function DocumentationProvider({ api, children, initial = initialState }: { api: Api; children: ReactNode; initial?: DocumentationState }) {
  const [state, dispatch] = useReducer(reducer, initial);
  const inFlight = useRef(new Map<ResourceKey, Promise<void>>());

  // The code boxes' background as on screen (the inline script's, then each choice).
  useEffect(() => {
    const follow = () => { dispatch({ type: 'codeSnippetBackgroundChosen', style: currentCodeBackground() }); };
    follow();
    return subscribeCodeBackground(follow);
  }, []);

  const load = useCallback(
    (key: ResourceKey) => {
      const running = inFlight.current.get(key);
      if (running) return running;
      dispatch({ type: 'loadStarted', key });
      const p = api
        .load(endpointOf[key])
        .then(
          (object) => { dispatch({ type: 'loadSucceeded', key, object }); },
          (error: unknown) => { dispatch({ type: 'loadFailed', key, error }); },
        )
        .finally(() => inFlight.current.delete(key));
      inFlight.current.set(key, p);
      return p;
    },
    [api],
  );

  const save = useCallback(
    (key: ResourceKey, object: unknown) => {
      dispatch({ type: 'saveStarted', key });
      return api.save(endpointOf[key], object).then(
        (saved) => { dispatch({ type: 'saveSucceeded', key, object: saved }); },
        (error: unknown) => { dispatch({ type: 'saveFailed', key, error }); },
      );
    },
    [api],
  );

  const value = useMemo(() => ({ state, load, save }), [state, load, save]);
  return <DocumentationContext.Provider value={value}>{children}</DocumentationContext.Provider>;
}

export function useDocumentation(): DocumentationContextValue {
  const value = useContext(DocumentationContext);
  if (!value) throw new Error('useDocumentation needs a DocumentationProvider');
  return value;
}

/** A resource's state, loaded on first use when `enabled`. */
export function useResource<K extends ResourceKey>(key: K, enabled = true): DocumentationState[K] {
  const { state, load } = useDocumentation();
  const resource = state[key];
  const untouched = resource.object === null && !resource.isLoading && resource.loadError === null;
  useEffect(() => {
    if (enabled && untouched) void load(key);
  }, [enabled, untouched, key, load]);
  return resource;
}
