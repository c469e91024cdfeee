import { describe, expect, it, vi } from 'vitest';
import { ApiError, HttpError, apiUrl, createApi, endpoints, sdkChangeLogs } from '../src/data/api';
import { respond } from './fixtures';

function mockFetch(...responses: Array<Response | Error>) {
  const fn = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
  for (const r of responses) {
    if (r instanceof Error) fn.mockRejectedValueOnce(r);
    else fn.mockResolvedValueOnce(r);
  }
  return fn;
}

describe('data calls', () => {
  it('calls the site itself when the API base is empty, else the API base', () => {
    expect(apiUrl('', '', 'docs/v1/mediated_networks')).toBe('/docs/v1/mediated_networks');
    expect(apiUrl('', '/base', 'docs/v1/mediated_networks')).toBe('/base/docs/v1/mediated_networks');
    expect(apiUrl('https://api.example.test/', '', 'docs/v1/user_keys/sdk')).toBe('https://api.example.test/docs/v1/user_keys/sdk');
  });

  it.each([
    ['networks', '/docs/v1/mediated_networks', { networks: [{ name: 'A' }] }, [{ name: 'A' }]],
    ['skAdnetworkIds', '/docs/v1/mediation_sk_adnetwork_ids', { mediationSKAdnetworkIdsSpecs: [{ id: 'x.skadnetwork' }] }, [{ id: 'x.skadnetwork' }]],
    ['sdkKey', 'https://api.example.test/docs/v1/user_keys/sdk', { key: 'abc' }, 'abc'],
    ['safedkKey', 'https://api.example.test/docs/v1/user_keys/safedk', { key: 'def' }, 'def'],
  ] as const)('GETs %s from %s and reads its field', async (name, url, body, expected) => {
    const fetch = mockFetch(respond(body));
    const api = createApi(url.startsWith('https:') ? 'https://api.example.test' : '', '', fetch);
    await expect(api.load(endpoints[name])).resolves.toEqual(expected);
    expect(fetch).toHaveBeenCalledWith(url, expect.objectContaining({ method: 'GET' }));
    expect(fetch.mock.calls[0][1]!.body).toBeUndefined();
  });

  it('fails the user-key calls against the static site itself with not_found, without a request', async () => {
    const fetch = mockFetch();
    const api = createApi('', '/base', fetch);
    await expect(api.load(endpoints.sdkKey)).rejects.toMatchObject({ id: 'not_found' });
    await expect(api.load(endpoints.safedkKey)).rejects.toBeInstanceOf(ApiError);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('GETs an SDK changelog by id', async () => {
    const fetch = mockFetch(respond({ sdkChangeLogs: [{ version: '13.0.0' }] }));
    await expect(createApi('', '', fetch).load(sdkChangeLogs('android'))).resolves.toEqual([{ version: '13.0.0' }]);
    expect(fetch.mock.calls[0][0]).toBe('/docs/v1/sdk-change-logs/android');
  });

  it('fails with not_found when the response lacks the expected field', async () => {
    const api = createApi('', '', mockFetch(respond({ other: 1 }), respond('<html>', 200, 'text/html')));
    await expect(api.load(endpoints.networks)).rejects.toMatchObject({ id: 'not_found' });
    await expect(api.load(endpoints.networks)).rejects.toBeInstanceOf(ApiError);
  });

  it('passes transport errors on as they arrive', async () => {
    const offline = new TypeError('Failed to fetch');
    const api = createApi('', '', mockFetch(offline, respond('missing', 404, 'text/html')));
    await expect(api.load(endpoints.networks)).rejects.toBe(offline);
    const notThere = api.load(endpoints.networks);
    await expect(notThere).rejects.toBeInstanceOf(HttpError);
    await expect(notThere).rejects.toMatchObject({ status: 404 });
  });

  it('saves by posting the object under its field and reads it back from the same field', async () => {
    const fetch = mockFetch(respond({ key: 'saved' }));
    await expect(createApi('', '', fetch).save(endpoints.sdkKey, 'new')).resolves.toBe('saved');
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/docs/v1/user_keys/sdk');
    expect(init).toMatchObject({ method: 'POST' });
    expect(JSON.parse(init!.body as string)).toEqual({ key: 'new' });
  });

  it('fails with save_failed when the answer lacks the object', async () => {
    await expect(createApi('', '', mockFetch(respond({}))).save(endpoints.networks, [])).rejects.toMatchObject({ id: 'save_failed' });
  });
});
