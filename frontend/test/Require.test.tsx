import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RequireButton, RequireLink } from '../src/ui/Require';
import { applyGates, isAllowed, requirementOf } from '../src/lib/access';
import { AccessContext } from '../src/state/AccessContext';

const access = { features: ['beta-tools'], permissions: [] as string[] };

describe('feature and permission requirements', () => {
  it('allows a feature only when it is enabled', () => {
    expect(isAllowed({ feature: 'beta-tools' }, access)).toBe(true);
    expect(isAllowed({ feature: 'secret-labs' }, access)).toBe(false);
    expect(isAllowed({}, access)).toBe(true);
  });

  it('allows all-of and one-of permissions only when held (no login: none are)', () => {
    expect(isAllowed({ allOf: ['a', 'b'] }, access)).toBe(false);
    expect(isAllowed({ oneOf: ['a', 'b'] }, access)).toBe(false);
    expect(isAllowed({ allOf: ['a', 'b'] }, { features: [], permissions: ['a', 'b'] })).toBe(true);
    expect(isAllowed({ allOf: ['a', 'b'] }, { features: [], permissions: ['a'] })).toBe(false);
    expect(isAllowed({ oneOf: ['a', 'b'] }, { features: [], permissions: ['b'] })).toBe(true);
  });

  it('renders gated links and buttons only when allowed', () => {
    render(
      <AccessContext.Provider value={access}>
        <RequireLink require={{ feature: 'beta-tools' }} href="/beta">
          Beta
        </RequireLink>
        <RequireLink require={{ feature: 'secret-labs' }} href="/labs">
          Labs
        </RequireLink>
        <RequireButton require={{ allOf: ['admin'] }}>Delete</RequireButton>
        <RequireButton require={{ feature: 'beta-tools' }}>Try</RequireButton>
      </AccessContext.Provider>,
    );
    expect(screen.getByRole('link', { name: 'Beta' })).toHaveAttribute('href', '/beta');
    expect(screen.queryByRole('link', { name: 'Labs' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Try' })).toBeInTheDocument();
  });

  it('shows and hides gated elements of the content', () => {
    const root = document.createElement('div');
    root.innerHTML = `
      <a id="on" data-require-feature="beta-tools" href="/b">on</a>
      <a id="off" data-require-feature="secret-labs" href="/l">off</a>
      <a id="all" data-require-all="p1, p2" href="/a">all</a>
      <button id="one" data-require-one="p1,p2">one</button>`;
    expect(requirementOf(root.querySelector('#all')!)).toEqual({ allOf: ['p1', 'p2'] });
    applyGates(root, access);
    expect(root.querySelector('#on')).toHaveAttribute('data-dg-allowed');
    expect(root.querySelector('#on')).not.toHaveAttribute('hidden');
    for (const id of ['#off', '#all', '#one']) {
      expect(root.querySelector(id)).toHaveAttribute('hidden');
      expect(root.querySelector(id)).not.toHaveAttribute('data-dg-allowed');
    }
  });
});
