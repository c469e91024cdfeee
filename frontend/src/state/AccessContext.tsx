import { createContext, useContext } from 'react';
import type { Access } from '../lib/access';

const noAccess: Access = { features: [], permissions: [] };

export const AccessContext = createContext<Access>(noAccess);

export function useAccess(): Access {
  return useContext(AccessContext);
}
