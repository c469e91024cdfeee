import { t } from '../i18n';

/** What a route without a page shows, in place of the article. */
export function ErrorPage({ title, subtitle, homeHref }: { title: string; subtitle: string; homeHref: string }) {
  return (
    <article className="dg-article dg-error-page" id="dg-not-found" data-not-found="">
      <h1 id="dg-error-title">{title}</h1>
      <p id="dg-error-subtitle">{subtitle}</p>
      <p>
        <a href={homeHref}>{t('error.home')}</a>
      </p>
    </article>
  );
}
