import { useEffect, useState } from 'react';

/** Whether the window is scrolled down by more than `screens` window heights (checked once a frame). */
export function useScrolledPast(screens: number): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    let frame = 0;
    const check = () => {
      frame = 0;
      setPast(window.scrollY > window.innerHeight * screens);
    };
    const onChange = () => {
      if (!frame) frame = window.requestAnimationFrame(check);
    };
    check();
    window.addEventListener('scroll', onChange, { passive: true });
    window.addEventListener('resize', onChange);
    return () => {
      window.cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onChange);
      window.removeEventListener('resize', onChange);
    };
  }, [screens]);
  return past;
}
