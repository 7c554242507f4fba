import './spinner.css';

/** A decorative spinner: the element that shows it says in words what is happening (aria-busy, a label). */
export function Spinner({ size = 'md' }: { size?: 'sm' | 'md' | 'lg' }) {
  return <span className={`spinner spinner--${size}`} aria-hidden="true" />;
}
