import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/data/api';
import { phaseOf } from '../src/state/documentation';
import { DocumentationProvider, useDocumentation, useResource } from '../src/state/DocumentationContext';
import { fakeApi } from './render';

function Probe({ load = true }: { load?: boolean }) {
  const networks = useResource('networks', load);
  const { state } = useDocumentation();
  return (
    <p>
      {phaseOf(networks)} {JSON.stringify(networks.object)} {(networks.loadError as ApiError | null)?.id ?? ''} {state.networks === networks ? 'same' : 'other'}
    </p>
  );
}

describe('documentation state provider', () => {
  it('loads a resource on first use, once', async () => {
    const api = fakeApi({ 'docs/v1/mediated_networks': [{ name: 'A' }] });
    render(
      <DocumentationProvider api={api}>
        <Probe />
        <Probe />
      </DocumentationProvider>,
    );
    expect(screen.getAllByText(/loading/)).toHaveLength(2);
    await act(async () => {});
    expect(screen.getAllByText('loaded [{"name":"A"}] same')).toHaveLength(2);
    expect(api.load).toHaveBeenCalledTimes(1);
  });

  it('keeps a failed load’s error in the state', async () => {
    const api = fakeApi({ 'docs/v1/mediated_networks': new ApiError('not_found', 'docs/v1/mediated_networks') });
    render(
      <DocumentationProvider api={api}>
        <Probe />
      </DocumentationProvider>,
    );
    await act(async () => {});
    expect(screen.getByText('loadFailed null not_found same')).toBeInTheDocument();
    await act(async () => {});
    expect(api.load).toHaveBeenCalledTimes(1);
  });

  it('does not load what nobody asked for', () => {
    const api = fakeApi();
    render(
      <DocumentationProvider api={api}>
        <Probe load={false} />
      </DocumentationProvider>,
    );
    expect(api.load).not.toHaveBeenCalled();
  });

  it('reloads and saves through the generic calls', async () => {
    const api = fakeApi({ 'docs/v1/mediated_networks': [{ name: 'A' }] });
    let ctx: ReturnType<typeof useDocumentation> | null = null;
    function Grab() {
      ctx = useDocumentation();
      return null;
    }
    render(
      <DocumentationProvider api={api}>
        <Grab />
        <Probe load={false} />
      </DocumentationProvider>,
    );
    await act(() => ctx!.load('networks'));
    await act(() => ctx!.save('networks', [{ name: 'B' }]));
    expect(screen.getByText('loaded [{"name":"B"}] same')).toBeInTheDocument();
    expect(api.save).toHaveBeenCalledWith(expect.objectContaining({ field: 'networks' }), [{ name: 'B' }]);
  });
});
