// The shapes the app reads: the page data embedded in every page and the tables under _docgen/.

export interface Crumb {
  displayName: string;
  url: string;
}

export interface TocEntry {
  displayName: string;
  hashName: string;
  /** 1 to 3; the tables may give it as a string. */
  level: number | string;
}

export interface FooterLink {
  displayName: string;
  id: string;
  isPage: boolean;
  url: string;
  icon?: { iconSrc: string; iconAlt: string };
  children: unknown[];
  action?: 'consent';
}

export interface AreaLink {
  displayName: string;
  url: string;
  notFound?: { title: string; subtitle: string };
}

export interface SiteData {
  title: string;
  base: string;
  home: string;
  navUrl: string;
  apiBase: string;
  features: string[];
  year: number;
  copyright: string;
  footer: FooterLink[];
  areas: AreaLink[];
  logo: string;
}

export interface PageData {
  /** null on the 404 pages. */
  route: string | null;
  canonical?: string;
  title: string;
  area?: string | null;
  breadcrumbs: Crumb[];
  toc: TocEntry[];
  menuPath: string[];
  notFound?: boolean;
  site: SiteData;
}

/** A node of `_docgen/nav.json`. */
export interface NavNode {
  displayName: string;
  id: string;
  isPage: boolean;
  url: string;
  breadcrumbUrl?: string;
  children: NavNode[];
  icon?: { src: string; alt: string };
  requireFeature?: string;
  external?: boolean;
}
