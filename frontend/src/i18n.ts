// Every string the app shows, by id. Components call t(id) or t(id, {name: value});
// `{name}` in a string is replaced by the value of the same name. The table,
// templates/strings.json, is shared with the page templates (their global `t`), so a text the
// reader sees is written once whether the build or the app shows it. A site extension's islands
// keep their strings in their own bundle (src/extensions/NAME/i18n.ts), filled by `fill`.
import table from '../../templates/strings.json';

export const strings: Readonly<typeof table> = table;

export type StringId = keyof typeof strings;

/** The texts of the page's locale when it is not the default (`site.strings` of the page data). */
let localised: Readonly<Record<string, string>> | undefined;

/** Takes the texts of the page being shown: its locale's table, or none for the default's. */
export function setLocaleStrings(table: Readonly<Record<string, string>> | undefined): void {
  localised = table;
}

export function t(id: StringId, params?: Record<string, string | number>): string {
  return fill(localised?.[id] ?? strings[id], params);
}

/** `text` with each `{name}` replaced by the value of the same name (the others kept). */
export function fill(text: string, params?: Record<string, string | number>): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
