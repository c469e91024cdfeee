// The site's own data calls (spec §7), made against the API base from the page data ("" means
// this site, under its base path). Errors: a response without the expected field is
// `not_found`; a save whose answer lacks the object is `save_failed`; anything that fails on
// the way (network errors, HTTP error statuses) is passed on as it arrived.

export type ApiErrorId = 'not_found' | 'save_failed';

export class ApiError extends Error {
  readonly id: ApiErrorId;
  constructor(id: ApiErrorId, path: string) {
    super(`${id}: ${path}`);
    this.name = 'ApiError';
    this.id = id;
  }
}

/** A response with an error status, as it arrived. */
export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, path: string) {
    super(`HTTP ${status}: ${path}`);
    this.name = 'HttpError';
    this.status = status;
  }
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface Endpoint {
  path: string;
  field: string;
}

export const endpoints = {
  networks: { path: 'docs/v1/mediated_networks', field: 'networks' },
  skAdnetworkIds: { path: 'docs/v1/mediation_sk_adnetwork_ids', field: 'mediationSKAdnetworkIdsSpecs' },
  sdkKey: { path: 'docs/v1/user_keys/sdk', field: 'key' },
  safedkKey: { path: 'docs/v1/user_keys/safedk', field: 'key' },
} as const satisfies Record<string, Endpoint>;

/** What a static site never publishes: it has no signed-in user, so no user keys. */
const userKeyPaths: ReadonlySet<string> = new Set([endpoints.sdkKey.path, endpoints.safedkKey.path]);

export function sdkChangeLogs(id: string): Endpoint {
  return { path: `docs/v1/sdk-change-logs/${encodeURIComponent(id)}`, field: 'sdkChangeLogs' };
}

export function apiUrl(apiBase: string, siteBase: string, path: string): string {
  const root = apiBase !== '' ? apiBase : siteBase;
  return `${root.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

async function readField(response: Response, field: string, failure: ApiErrorId, path: string): Promise<unknown> {
  if (!response.ok) {
    // Read the body anyway, so the request ends instead of waiting on an unread stream.
    await response.text().catch(() => undefined);
    throw new HttpError(response.status, path);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(failure, path);
  }
  if (body === null || typeof body !== 'object' || !(field in body)) throw new ApiError(failure, path);
  const value = (body as Record<string, unknown>)[field];
  if (value === undefined || value === null) throw new ApiError(failure, path);
  return value;
}

export interface Api {
  load: <T>(endpoint: Endpoint, signal?: AbortSignal) => Promise<T>;
  save: <T>(endpoint: Endpoint, object: T, signal?: AbortSignal) => Promise<T>;
}

export function createApi(apiBase: string, siteBase: string, fetchImpl: Fetch = (input, init) => fetch(input, init)): Api {
  return {
    async load<T>(endpoint: Endpoint, signal?: AbortSignal): Promise<T> {
      // Against the site itself a user-key call fails at once, as the answer would: the key is
      // not there (and no failed request shows up in the browser's console).
      if (apiBase === '' && userKeyPaths.has(endpoint.path)) throw new ApiError('not_found', endpoint.path);
      const response = await fetchImpl(apiUrl(apiBase, siteBase, endpoint.path), {
        method: 'GET',
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
        ...(signal ? { signal } : {}),
      });
      return (await readField(response, endpoint.field, 'not_found', endpoint.path)) as T;
    },
    async save<T>(endpoint: Endpoint, object: T, signal?: AbortSignal): Promise<T> {
      const response = await fetchImpl(apiUrl(apiBase, siteBase, endpoint.path), {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify({ [endpoint.field]: object }),
        ...(signal ? { signal } : {}),
      });
      return (await readField(response, endpoint.field, 'save_failed', endpoint.path)) as T;
    },
  };
}
