import type { ReactNode } from 'react';
import { slug } from 'github-slugger';
import { t } from '../i18n';
import type { AnchorRule } from '../types';

/**
 * The id of a heading text by the site's anchor rule (`markdown.anchors`), as docgen makes it
 * for headings in Markdown (crates/docgen/src/markdown/anchors.rs; both pinned by crates/docgen-cli/tests/vectors/anchors.json).
 * `literal`: lowercased, each run of whitespace one hyphen. `github`: GitHub's rule, the one
 * links written elsewhere expect.
 */
export function anchorId(text: string, rule: AnchorRule = 'literal'): string {
  return rule === 'github' ? slug(text) : text.trim().toLowerCase().replace(/\s+/g, '-');
}

export interface HeadingProps {
  level: 1 | 2 | 3;
  /** The heading text; also the source of the anchor unless `id` is given. */
  text: string;
  id?: string;
  /** The site's anchor rule, for the id made from `text`. */
  anchors?: AnchorRule;
  children?: ReactNode;
}

/**
 * A heading with a link to itself, the same markup docgen writes for headings in Markdown, so
 * headings rendered by islands join the table of contents rules and the anchor offset.
 */
export function Heading({ level, text, id, anchors, children }: HeadingProps) {
  const anchor = id ?? anchorId(text, anchors);
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
