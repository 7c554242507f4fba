import { useCallback, useState } from 'react';
import { imageProblem } from './image-check.ts';

/**
 * The picked image and what is wrong with it, if anything. A refused file is not kept, so it can be
 * neither previewed nor sent; `setError` takes what the server said about the one that was sent.
 */
export function useImageChoice() {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();

  const choose = useCallback(async (picked: File | null) => {
    if (!picked) {
      setFile(null);
      return;
    }
    const problem = await imageProblem(picked);
    setFile(problem ? null : picked);
    setError(problem);
  }, []);

  return { file, error, choose, setError };
}
