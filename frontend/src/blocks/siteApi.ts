import { readPageData } from '../data/pageData';
import { createApi, type Api } from '../data/api';

/**
 * The site's data calls for an island whose data is not part of the documentation state: the
 * API base of the page data, the site's base path of `<html data-base>`.
 */
export function siteApi(doc: Document): Api {
  const data = readPageData(doc);
  const base = doc.documentElement.getAttribute('data-base') ?? data?.site.base ?? '';
  return createApi(data?.site.apiBase ?? '', base);
}
