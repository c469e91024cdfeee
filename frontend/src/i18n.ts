// Every string the app shows, by id. Components call t(id) or t(id, {name: value});
// `{name}` in a string is replaced by the value of the same name. The table,
// templates/strings.json, is shared with the page templates (their global `t`), so a text the
// reader sees is written once whether the build or the app shows it.
import table from '../../templates/strings.json';

export const strings: Readonly<typeof table> = table;

export type StringId = keyof typeof strings;

export function t(id: StringId, params?: Record<string, string | number>): string {
  const text: string = strings[id];
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
