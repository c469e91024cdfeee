// Content islands: `<div data-dg-block="NAME" data-...>fallback</div>` in a page's HTML. The app
// keeps a registry NAME → component; a known island's fallback is read (read), then replaced
// by the component, rendered into the same element, or, for a component that works on the
// server's markup in place (inPlace), kept and given behaviour. Unknown names are left as they are,
// unless a site extension's bundle registers them: the app imports it on a page that holds one
// (./extensions). The ad-platform site's islands live with its extension (src/extensions/adplatform/).

import { Changelog, readChangelog } from './Changelog';
import { CodeBoxInPlace, readCodeBoxInPlace } from './CodeSnippetBox';
import { PagedTable, readTable } from './PagedTable';
import { ProseTabs, readProseTabs } from './ProseTabs';
import { Popover } from '../ui/Popover';
import { registerIsland } from './registry';
import { Tooltip } from '../ui/Tooltip';

/** A popover island: `data-label` is the header, the fallback HTML the content. */
function PopoverIsland({ label, html, closeOnContentClick, autoHide }: { label: string; html: string; closeOnContentClick: boolean; autoHide: boolean }) {
  return (
    <Popover header={label} closeOnContentClick={closeOnContentClick} autoHide={autoHide}>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Popover>
  );
}

/** A tooltip island: the fallback text is the term, `data-tip` its description. */
function TooltipIsland({ text, tip }: { text: string; tip: string }) {
  return (
    <Tooltip content={tip}>
      <span className="dg-term" tabIndex={0}>
        {text}
      </span>
    </Tooltip>
  );
}

registerIsland('code', { read: readCodeBoxInPlace, Component: CodeBoxInPlace, inPlace: true });
registerIsland('table', { read: readTable, Component: PagedTable, inPlace: true });
registerIsland('tabs', { read: readProseTabs, Component: ProseTabs, inPlace: true });
registerIsland('popover', {
  read: (host) => ({
    label: host.getAttribute('data-label') ?? '',
    html: host.innerHTML,
    closeOnContentClick: host.getAttribute('data-close-on-click') === 'true',
    autoHide: host.getAttribute('data-auto-hide') === 'true',
  }),
  Component: PopoverIsland,
});
registerIsland('tooltip', {
  read: (host) => ({ text: host.textContent, tip: host.getAttribute('data-tip') ?? '' }),
  Component: TooltipIsland,
});
registerIsland('changelog', { read: readChangelog, Component: Changelog });
