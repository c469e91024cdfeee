import { useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import { anchorUrl } from '../ui/Heading';
import { renderIslands, useIslands } from '../blocks/mount';

export interface ArticleContent {
  /** Changes whenever other content is to be shown. */
  key: number;
  html: string;
  /** Nodes already in the document (the first page), moved in instead of parsing `html`. */
  nodes?: Node[];
}

function copyAnchor(e: MouseEvent<HTMLElement>) {
  const anchor = e.target instanceof Element ? e.target.closest('a.dg-anchor') : null;
  if (!(anchor instanceof HTMLAnchorElement) || !navigator.clipboard?.writeText) return;
  // The link still goes to its section; the address is also on the clipboard to share.
  navigator.clipboard.writeText(anchorUrl(anchor)).catch(() => undefined);
}

/**
 * The page's content: docgen's HTML, with its islands brought to life and its gated links
 * shown or hidden. The HTML is put in place before paint, so there is no empty frame.
 */
export function Article({ content }: { content: ArticleContent }) {
  const ref = useRef<HTMLElement>(null);
  const [shownKey, setShownKey] = useState<number | null>(null);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (content.nodes) el.replaceChildren(...content.nodes);
    else el.innerHTML = content.html;
    setShownKey(content.key);
  }, [content]);

  const islands = useIslands(ref, shownKey);
  return (
    <article ref={ref} className="dg-article" data-pagefind-body="" onClick={copyAnchor}>
      {renderIslands(islands)}
    </article>
  );
}
