// Feature flags and permissions that links, buttons and menu items may require (spec §6). The
// site has no login, so no permissions are ever held; features are the site's enabled flags.

export interface Requirement {
  /** Shown only when this feature is enabled. */
  feature?: string | undefined;
  /** Shown only when every one of these permissions is held. */
  allOf?: readonly string[] | undefined;
  /** Shown only when at least one of these permissions is held. */
  oneOf?: readonly string[] | undefined;
}

export interface Access {
  features: readonly string[];
  permissions: readonly string[];
}

export function isAllowed(req: Requirement, access: Access): boolean {
  if (req.feature !== undefined && !access.features.includes(req.feature)) return false;
  if (req.allOf && req.allOf.length > 0 && !req.allOf.every((p) => access.permissions.includes(p))) return false;
  if (req.oneOf && req.oneOf.length > 0 && !req.oneOf.some((p) => access.permissions.includes(p))) return false;
  return true;
}

function list(value: string | null): string[] | undefined {
  if (value === null) return undefined;
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/** The requirement written on an element of the content: data-require-feature/-all/-one. */
export function requirementOf(el: Element): Requirement {
  const feature = el.getAttribute('data-require-feature');
  return {
    ...(feature !== null ? { feature: feature.trim() } : {}),
    ...(el.hasAttribute('data-require-all') ? { allOf: list(el.getAttribute('data-require-all')) } : {}),
    ...(el.hasAttribute('data-require-one') ? { oneOf: list(el.getAttribute('data-require-one')) } : {}),
  };
}

export const GATED_SELECTOR = '[data-require-feature], [data-require-all], [data-require-one]';

/**
 * Shows the gated elements of some content that the reader may see (data-dg-allowed) and hides
 * the others. The style sheet hides every gated element until it is allowed, so nothing
 * appears and disappears again.
 */
export function applyGates(root: ParentNode, access: Access): void {
  for (const el of Array.from(root.querySelectorAll(GATED_SELECTOR))) {
    const allowed = isAllowed(requirementOf(el), access);
    el.toggleAttribute('data-dg-allowed', allowed);
    el.toggleAttribute('hidden', !allowed);
  }
}
