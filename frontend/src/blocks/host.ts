// What the app lends the bundles of site extensions (./shared.mjs): their islands register with
// this registry and render with this React, so an extension's bundle holds its own code only.

import * as React from 'react';
import * as ReactDom from 'react-dom';
import * as JsxRuntime from 'react/jsx-runtime';
import * as pageData from '../data/pageData';
import * as i18n from '../i18n';
import * as html from '../lib/html';
import * as DocumentationContext from '../state/DocumentationContext';
import * as Button from '../ui/Button';
import * as Picker from '../ui/Picker';
import * as CodeSnippetBox from './CodeSnippetBox';
import * as Fallback from './Fallback';
import * as registry from './registry';
import { HOST_GLOBAL } from './shared.mjs';

/** The shared modules by their key in ./shared.mjs. */
export const hostModules: Record<string, unknown> = {
  react: React,
  'react/jsx-runtime': JsxRuntime,
  'react-dom': ReactDom,
  'blocks/CodeSnippetBox': CodeSnippetBox,
  'blocks/Fallback': Fallback,
  'blocks/registry': registry,
  'data/pageData': pageData,
  i18n,
  'lib/html': html,
  'state/DocumentationContext': DocumentationContext,
  'ui/Button': Button,
  'ui/Picker': Picker,
};

/** What an extension's bundle finds on `globalThis.__docgen`. */
export interface Host {
  registerIsland: typeof registry.registerIsland;
  modules: Record<string, unknown>;
}

/** Makes the shared modules reachable for the extensions' bundles; before they are imported. */
export function exposeHost(): void {
  const host: Host = { registerIsland: registry.registerIsland, modules: hostModules };
  (globalThis as Record<string, unknown>)[HOST_GLOBAL] = host;
}
