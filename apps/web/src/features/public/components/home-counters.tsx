import { useEffect, useRef, useState } from 'react';
import { homeCounters } from '@strongroom/contracts/constants.ts';
import './home-counters.css';

type HomeCounter = (typeof homeCounters)[number];

/** How long one counter takes to climb from zero to its value once its delay has passed. */
export const counterAnimationMs = 1_500;

/**
 * Writes a value in the same form as the counter's display text: the Feedback counter reads
 * "3K", "7K" ... "10K"; the others keep their suffix ("1200+", "2000+").
 */
export function formatCounterValue(counter: HomeCounter, value: number): string {
  const match = /^\d+(K?)(.*)$/.exec(counter.display);
  const inThousands = match?.[1] === 'K';
  const suffix = match?.[2] ?? '';
  if (value >= counter.target) return counter.display;
  return `${inThousands ? Math.floor(value / 1_000) : value}${inThousands ? 'K' : ''}${suffix}`;
}

function prefersReducedMotion(): boolean {
  // No window while the page is pre-rendered at build time; the counters show their final figures then.
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function easeOutCubic(progress: number): number {
  return 1 - (1 - progress) ** 3;
}

/**
 * The figure to show: the final one until the section scrolls into view (so the pre-rendered page, a
 * screenshot, a reader without JavaScript and anyone who prefers reduced motion see "10K", never "0K"),
 * then a climb from 0 to it after the counter's delay.
 */
function useCountUp(counter: HomeCounter, started: boolean, reducedMotion: boolean): number {
  const [value, setValue] = useState<number>(counter.target);
  useEffect(() => {
    if (!started || reducedMotion) return;
    setValue(0);
    let frame = 0;
    const timer = window.setTimeout(() => {
      const startedAt = performance.now();
      const step = (now: number) => {
        const progress = Math.min(1, (now - startedAt) / counterAnimationMs);
        setValue(Math.round(counter.target * easeOutCubic(progress)));
        if (progress < 1) frame = window.requestAnimationFrame(step);
      };
      frame = window.requestAnimationFrame(step);
    }, counter.delayMs);
    return () => {
      window.clearTimeout(timer);
      window.cancelAnimationFrame(frame);
    };
  }, [counter, started, reducedMotion]);
  return value;
}

function Counter({ counter, started, reducedMotion }: { counter: HomeCounter; started: boolean; reducedMotion: boolean }) {
  const value = useCountUp(counter, started, reducedMotion);
  return (
    <div className="counter">
      <dt className="counter__label">{counter.label}</dt>
      <dd className="counter__figure">
        {/* Screen readers get the final figure once, not every step of the animation. */}
        <span className="counter__value" aria-hidden="true">
          {formatCounterValue(counter, value)}
        </span>
        <span className="visually-hidden">{counter.display}</span>
      </dd>
    </div>
  );
}

/** The home page's three counters; they start when the section scrolls into view. */
export function HomeCounters() {
  const sectionRef = useRef<HTMLElement>(null);
  const [reducedMotion] = useState(prefersReducedMotion);
  const [started, setStarted] = useState(false);

  useEffect(() => {
    const section = sectionRef.current;
    if (!section || reducedMotion) return;
    if (typeof IntersectionObserver === 'undefined') {
      setStarted(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        setStarted(true);
        observer.disconnect();
      }
    });
    observer.observe(section);
    return () => observer.disconnect();
  }, [reducedMotion]);

  return (
    <section ref={sectionRef} className="section counters" aria-labelledby="counters-title">
      <div className="container">
        <h2 id="counters-title" className="counters__title">
          A bank built with its community
        </h2>
        <dl className="counters__list">
          {homeCounters.map((counter) => (
            <Counter key={counter.label} counter={counter} started={started} reducedMotion={reducedMotion} />
          ))}
        </dl>
      </div>
    </section>
  );
}
