import { Fragment, useMemo, useState, type ReactNode } from 'react';
import { useResource } from '../../../state/DocumentationContext';
import { Fallback, GeneratedCode, LoadError, readFallback, useDomId, type Output } from '../../../blocks/Fallback';
import { t } from '../i18n';
import { formatLabels, formatOrder } from './formats';
import { Picker, type PickerItem } from '../../../ui/Picker';
import {
  adapterNetworks,
  gradleSnippet,
  highlightQuoted,
  nativesFor,
  networksFor,
  plistHtml,
  podfileSnippet,
  skadIds,
  toSpecs,
  unique,
  type Network,
} from './snippets';

export interface DependencyBuilderProps {
  /** The page's platform: android, ios, or a plugin (unity, flutter, …). */
  platform: string;
  /** On a plugin's Android or iOS sub-page, that side. */
  native: string | null;
  fallback: Node[];
}

export function readDependencyBuilder(host: HTMLElement): DependencyBuilderProps {
  return { platform: host.getAttribute('data-platform') ?? '', native: host.getAttribute('data-native'), fallback: readFallback(host) };
}

/** A network's ad formats, in the pages' order and words. */
export function formatsText(formats: readonly string[]): string {
  const rank = (f: string) => (formatOrder.includes(f) ? formatOrder.indexOf(f) : formatOrder.length);
  return unique(formats)
    .sort((a, b) => rank(a) - rank(b))
    .map((f) => formatLabels[f] ?? f)
    .join(', ');
}

function details(n: Network): ReactNode {
  const parts: ReactNode[] = [];
  if (n.bidding) parts.push(<span className="dg-badge">{t('deps.bidding')}</span>);
  if (n.removed)
    parts.push(
      <span className="dg-badge dg-badge-muted">
        {t('deps.removed')}
        <span className="dg-visually-hidden">: {t('deps.removedHint')}</span>
      </span>,
    );
  if (n.formats.length > 0) parts.push(<span className="dg-picker-formats">{formatsText(n.formats)}</span>);
  if (parts.length === 0) return null;
  // Spaces between the parts, so they are read as words.
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 && ' '}
      {part}
    </Fragment>
  ));
}

/**
 * The adapters of a platform as checkboxes, and the lines for exactly the ticked ones: Gradle
 * (Android), Podfile and Info.plist SKAdNetworkItems (iOS). Until the catalogue is loaded, and
 * when it cannot be, the pre-rendered table stays.
 */
export function DependencyBuilder({ platform, native, fallback }: DependencyBuilderProps) {
  const natives = useMemo(() => nativesFor(platform, native), [platform, native]);
  const withAndroid = natives.includes('android');
  const withIos = natives.includes('ios');
  const networks = useResource('networks');
  const specs = useResource('skAdnetworkIds', withIos);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const boxId = useDomId('dg-deps');

  const all = useMemo(() => networksFor(adapterNetworks(networks.object), natives), [networks.object, natives]);
  const items = useMemo<PickerItem[]>(() => all.map((n) => ({ key: n.key, name: n.displayName, details: details(n) })), [all]);
  const outputs = useMemo<Output[]>(() => {
    const picked = all.filter((n) => selected.has(n.key));
    const out: Output[] = [];
    if (withAndroid) {
      const gradle = gradleSnippet(picked.filter((n) => n.platforms.includes('android')));
      if (gradle) out.push({ key: 'gradle', label: 'Gradle', lang: 'groovy', html: highlightQuoted(gradle) });
    }
    if (withIos) {
      const onIos = picked.filter((n) => n.platforms.includes('ios'));
      const podfile = podfileSnippet(onIos);
      if (podfile) out.push({ key: 'podfile', label: 'Podfile', lang: 'ruby', html: highlightQuoted(podfile) });
      if (onIos.length > 0 && specs.object !== null) {
        const slugs = onIos.map((n) => n.skadnetworkSpec).filter((s): s is string => s !== null);
        out.push({ key: 'plist', label: 'Info.plist', lang: 'xml', html: plistHtml(skadIds(toSpecs(specs.object), slugs)) });
      }
    }
    return out;
  }, [all, selected, withAndroid, withIos, specs.object]);

  const specsPending = withIos && specs.object === null && specs.loadError === null;
  if (networks.object === null || specsPending) {
    return (
      <>
        {networks.loadError !== null && <LoadError>{t('deps.loadFailed')}</LoadError>}
        <Fallback nodes={fallback} />
      </>
    );
  }

  return (
    <div className="dg-builder">
      {items.length === 0 ? (
        <p className="dg-builder-hint">{t('deps.none')}</p>
      ) : (
        <Picker idPrefix={`${boxId}-net`} legend={t('deps.legend')} items={items} selected={selected} onChange={setSelected} />
      )}
      {withIos && specs.object === null && <LoadError>{t('deps.skadFailed')}</LoadError>}
      {outputs.length > 0 ? (
        <GeneratedCode boxId={boxId} outputs={outputs} />
      ) : (
        items.length > 0 && <p className="dg-builder-hint">{t('deps.empty')}</p>
      )}
    </div>
  );
}
