import { useMemo, useState } from 'react';
import { useResource } from '../../../state/DocumentationContext';
import { readCodeBox } from '../../../blocks/CodeSnippetBox';
import { Fallback, GeneratedCode, LoadError, readFallback, useDomId } from '../../../blocks/Fallback';
import { t } from '../i18n';
import { Picker, type PickerItem } from '../../../ui/Picker';
import { extraCount, plainFrame, plistHtml, readPlistFrame, skadIds, toSpecs, type PlistFrame } from './snippets';

export interface SkAdNetworkGeneratorProps {
  fallback: Node[];
  /** The pre-rendered snippet's box id, label and language, kept by the generated one. */
  box: { id: string; label: string; lang: string };
  /** Where the entries go on the page's platform (config.xml, an app descriptor, Info.plist). */
  frame: PlistFrame;
}

export function readSkAdNetworkGenerator(host: HTMLElement): SkAdNetworkGeneratorProps {
  const code = host.querySelector<HTMLElement>('[data-dg-block="code"]');
  const read = code ? readCodeBox(code) : null;
  return {
    fallback: readFallback(host),
    box: { id: read?.boxId ?? '', label: read?.labels[0] || 'Info.plist', lang: read?.panels[0]?.lang || 'xml' },
    frame: code ? readPlistFrame(code.querySelector('.dg-code-panel code')) : plainFrame,
  };
}

/**
 * SKAdNetworkItems for the networks a reader mediates: the core list, always, and the IDs of
 * each ticked network, each ID once, sorted. Until the IDs are loaded, and when they cannot be,
 * the pre-rendered snippet (the core list) stays.
 */
export function SkAdNetworkGenerator({ fallback, box, frame }: SkAdNetworkGeneratorProps) {
  const specs = useResource('skAdnetworkIds');
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const ownId = useDomId('dg-skad');
  const boxId = box.id || ownId;

  const all = useMemo(() => toSpecs(specs.object), [specs.object]);
  const core = all.find((s) => s.core);
  const items = useMemo<PickerItem[]>(
    () =>
      all
        .filter((s) => !s.core)
        .map((s) => {
          const extra = extraCount(s, core);
          return { key: s.slug, name: s.displayName, details: extra === 0 ? t('skad.inCore') : extra === 1 ? t('skad.extraOne') : t('skad.extra', { count: extra }) };
        }),
    [all, core],
  );
  const ids = useMemo(() => skadIds(all, selected), [all, selected]);
  const outputs = useMemo(() => [{ key: 'plist', label: box.label, lang: box.lang, html: plistHtml(ids, frame) }], [ids, box, frame]);

  if (specs.object === null) {
    return (
      <>
        {specs.loadError !== null && <LoadError>{t('skad.loadFailed')}</LoadError>}
        <Fallback nodes={fallback} />
      </>
    );
  }

  return (
    <div className="dg-builder">
      <Picker
        idPrefix={`${ownId}-net`}
        legend={t('skad.legend')}
        items={items}
        selected={selected}
        onChange={setSelected}
        note={core ? t('skad.coreNote', { count: skadIds([core], []).length }) : undefined}
      />
      <p className="dg-builder-count" role="status">
        {ids.length === 1 ? t('skad.countOne') : t('skad.count', { count: ids.length })}
      </p>
      <GeneratedCode boxId={boxId} outputs={outputs} />
    </div>
  );
}
