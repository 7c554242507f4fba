import { useEffect, useState } from 'react';
import { Spinner } from '../components/ui/spinner.tsx';
import './page-loading.css';

/** A spinner that only appears when loading takes long enough to notice, so fast loads never flash. */
const spinnerDelayMs = 400;

export function PageLoading({ label = 'Loading' }: { label?: string }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setVisible(true), spinnerDelayMs);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <div className="page-loading" aria-busy="true">
      {visible ? (
        <>
          <Spinner size="lg" />
          <p role="status">{label}…</p>
        </>
      ) : null}
    </div>
  );
}
