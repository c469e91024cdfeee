import type { ReactNode } from 'react';
import { t } from '../i18n';

/** The site's anchor rule: the heading text lowercased, each run of spaces turned into a hyphen. */
export function anchorId(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, '-');
}

export interface HeadingProps {
  level: 1 | 2 | 3;
  /** The heading text; also the source of the anchor unless `id` is given. */
  text: string;
  id?: string;
  children?: ReactNode;
}

/**
 * A heading with a link to itself, the same markup docgen writes for headings in Markdown, so
 * headings rendered by islands join the table of contents rules and the anchor offset.
 */
export function Heading({ level, text, id, children }: HeadingProps) {
  const anchor = id ?? anchorId(text);
  const Tag = `h${level}` as const;
  return (
    <Tag id={anchor}>
      {children ?? text}
      <a className="dg-anchor" href={`#${anchor}`} aria-label={t('anchor.label', { text })}>
        #
      </a>
    </Tag>
  );
}

/** The absolute URL of an anchor link, for copying. */
export function anchorUrl(anchor: HTMLAnchorElement): string {
  return new URL(anchor.getAttribute('href') ?? '', window.location.href).href;
}
