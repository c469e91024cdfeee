import { t } from '../i18n';

/**
 * What a route without a page shows, in place of the article. In an area with its own
 * not-found page, also a link to the area's overview (its own page).
 */
export function ErrorPage({ title, subtitle, homeHref, overview }: { title: string; subtitle: string; homeHref: string; overview?: { name: string; href: string } }) {
  return (
    <article className="dg-article dg-error-page" id="dg-not-found" data-not-found="">
      <h1 id="dg-error-title">{title}</h1>
      <p id="dg-error-subtitle">{subtitle}</p>
      {overview && (
        <p>
          <a className="dg-overview-link" href={overview.href}>
            {t('error.overview', { name: overview.name })}
          </a>
        </p>
      )}
      <p>
        <a href={homeHref}>{t('error.home')}</a>
      </p>
    </article>
  );
}
