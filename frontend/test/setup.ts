import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetCodeTabs } from '../src/lib/codeTabs';

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
  document.documentElement.className = '';
  localStorage.clear();
  resetCodeTabs();
  document.documentElement.removeAttribute('data-theme');
  document.documentElement.removeAttribute('data-code-bg');
});
