import { Fragment } from 'react';
import type { Segment } from './engine';

/** Text with its matched words in <mark>, built from segments (never from HTML). */
export function Excerpt({ segments, className = 'dg-search-excerpt' }: { segments: readonly Segment[]; className?: string }) {
  if (segments.length === 0) return null;
  return (
    <span className={className}>
      {segments.map((s, i) => (s.mark ? <mark key={i}>{s.text}</mark> : <Fragment key={i}>{s.text}</Fragment>))}
    </span>
  );
}
