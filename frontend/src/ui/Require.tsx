import type { AnchorHTMLAttributes } from 'react';
import { isAllowed, type Requirement } from '../lib/access';
import { useAccess } from '../state/AccessContext';
import { Button, type ButtonProps } from './Button';

/**
 * A link shown only when its requirement is met: a feature that must be enabled, permissions
 * that must all be held, or permissions of which one must be held. The site has no login, so
 * permission requirements are never met; nothing is rendered then.
 */
export function RequireLink({ require, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { require: Requirement }) {
  const access = useAccess();
  return isAllowed(require, access) ? <a {...props} /> : null;
}

/** A button shown only when its requirement is met (see RequireLink). */
export function RequireButton({ require, ...props }: ButtonProps & { require: Requirement }) {
  const access = useAccess();
  return isAllowed(require, access) ? <Button {...props} /> : null;
}
