import { useState } from 'react';

export function utcYear(now: Date = new Date()): number {
  return now.getUTCFullYear();
}

/** The current year in UTC. The server wrote the year of the build; the app shows today's. */
export function useUtcYear(): number {
  const [year] = useState(() => utcYear());
  return year;
}
