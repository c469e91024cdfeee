import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Heading, anchorId } from '../src/ui/Heading';

describe('headings with anchors', () => {
  it('follow the site’s anchor rule', () => {
    expect(anchorId('Ad Unit Management API')).toBe('ad-unit-management-api');
    expect(anchorId('SDK 12.0.0 Release')).toBe('sdk-12.0.0-release');
    expect(anchorId('MAX Error Codes (network-independent)')).toBe('max-error-codes-(network-independent)');
    expect(anchorId('ad_unit_experiment/[ad_unit_id]')).toBe('ad_unit_experiment/[ad_unit_id]');
    expect(anchorId('  Two   spaces ')).toBe('two-spaces');
  });

  it('render the markup docgen writes for Markdown headings', () => {
    const { container } = render(<Heading level={2} text="Loading a Banner" />);
    expect(container.innerHTML).toBe(
      '<h2 id="loading-a-banner">Loading a Banner<a class="dg-anchor" href="#loading-a-banner" aria-label="Link to this section: Loading a Banner">#</a></h2>',
    );
  });

  it('take an explicit id', () => {
    const { container } = render(<Heading level={3} text="Sizes" id="banner-sizes" />);
    expect(container.querySelector('h3')).toHaveAttribute('id', 'banner-sizes');
    expect(container.querySelector('a')).toHaveAttribute('href', '#banner-sizes');
  });
});
