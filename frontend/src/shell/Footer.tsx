import { useUtcYear } from '../hooks/useUtcYear';
import { t } from '../i18n';
import type { SiteView } from '../types';

function isExternal(url: string): boolean {
  return url.includes('://');
}

/**
 * The footer: its links (external ones open in a new tab; "Cookies Settings" opens the consent
 * dialog) and the copyright line with the current UTC year.
 */
export function Footer({ site, onConsent }: { site: SiteView; onConsent(opener: HTMLElement): void }) {
  const year = useUtcYear();
  return (
    <footer id="dg-footer" className="dg-footer">
      <nav className="dg-footer-links" aria-label={t('footer.label')}>
        <ul>
          {site.footer.map((link, i) => (
            <li key={`${i}-${link.displayName}`}>
              {link.action === 'consent' ? (
                <button type="button" className="dg-footer-link" data-action="consent" onClick={(e) => onConsent(e.currentTarget)}>
                  {link.displayName}
                </button>
              ) : (
                <a className="dg-footer-link" href={link.url} {...(isExternal(link.url) ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
                  {link.displayName}
                  {link.icon && <img className="dg-footer-icon" src={link.icon.iconSrc} alt={link.icon.iconAlt} width={30} height={14} />}
                </a>
              )}
            </li>
          ))}
        </ul>
      </nav>
      <p className="dg-copyright">
        © <span className="dg-year">{year}</span> {site.copyright}
      </p>
    </footer>
  );
}
