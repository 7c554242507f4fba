import { useEffect, useRef, useState } from 'react';
import type { HomeCounter } from '@strongroom/contracts/staff-settings.ts';
import { usePublicSettings } from '../../../lib/public-settings.ts';
import './home-counters.css';

/** How long one counter takes to climb from zero to its value once its delay has passed. */
export const counterAnimationMs = 1_500;

/** How long each counter waits after the one before it, so they climb one after another. */
export const counterStaggerMs = 500;

/** A figure as the bank set it: "12,400+" when it is at least that many, "35" when exact. */
export function formatCounterValue(counter: HomeCounter, value: number): string {
  return `${value.toLocaleString('en-US')}${counter.atLeast ? '+' : ''}`;
}

function prefersReducedMotion(): boolean {
  // No window while the page is pre-rendered at build time; the counters show their final figures then.
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function easeOutCubic(progress: number): number {
  return 1 - (1 - progress) ** 3;
}

/**
 * The figure to show: the final one until the section scrolls into view (so a screenshot and anyone
 * who prefers reduced motion see the figure, never 0), then a climb from 0 to it after its delay.
 */
function useCountUp(counter: HomeCounter, delayMs: number, started: boolean, reducedMotion: boolean): number {
  const [value, setValue] = useState<number>(counter.value);
  useEffect(() => {
    if (!started || reducedMotion) return;
    setValue(0);
    let frame = 0;
    const timer = window.setTimeout(() => {
      const startedAt = performance.now();
      const step = (now: number) => {
        const progress = Math.min(1, (now - startedAt) / counterAnimationMs);
        setValue(Math.round(counter.value * easeOutCubic(progress)));
        if (progress < 1) frame = window.requestAnimationFrame(step);
      };
      frame = window.requestAnimationFrame(step);
    }, delayMs);
    return () => {
      window.clearTimeout(timer);
      window.cancelAnimationFrame(frame);
    };
  }, [counter, delayMs, started, reducedMotion]);
  return value;
}

function Counter({ counter, delayMs, started, reducedMotion }: { counter: HomeCounter; delayMs: number; started: boolean; reducedMotion: boolean }) {
  const value = useCountUp(counter, delayMs, started, reducedMotion);
  return (
    <div className="counter">
      <dt className="counter__label">{counter.label}</dt>
      <dd className="counter__figure">
        {/* Screen readers get the final figure once, not every step of the animation. */}
        <span className="counter__value" aria-hidden="true">
          {formatCounterValue(counter, value)}
        </span>
        <span className="visually-hidden">{formatCounterValue(counter, counter.value)}</span>
      </dd>
    </div>
  );
}

/**
 * The home page's figures, as the bank set them in its settings (docs/decisions/054): none set, or
 * the settings not loaded (the pre-rendered page), and there is no section; a bank's home page never
 * shows a figure nobody gave it. They count up when the section scrolls into view.
 */
export function HomeCounters() {
  const settings = usePublicSettings();
  const counters = settings.status === 'success' ? settings.settings.homeCounters : [];
  if (counters.length === 0) return null;
  return <CountersSection counters={counters} />;
}

function CountersSection({ counters }: { counters: readonly HomeCounter[] }) {
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
          {counters.map((counter, index) => (
            <Counter key={`${index}:${counter.label}`} counter={counter} delayMs={index * counterStaggerMs} started={started} reducedMotion={reducedMotion} />
          ))}
        </dl>
      </div>
    </section>
  );
}
