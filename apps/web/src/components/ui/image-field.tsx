import { useEffect, useState, type ChangeEvent, type Ref } from 'react';
import { ImageIcon } from 'lucide-react';
import { Field } from './field.tsx';
import './image-field.css';

export interface ImageFieldProps {
  label: string;
  hint?: string;
  error?: string | undefined;
  /** The file chosen so far; its preview shows beside the picker. */
  file: File | null;
  /** Called with the file the person picked (or null when they cleared the choice). */
  onFileChange: (file: File | null) => void;
  /** The file picker's filter, such as `image/png,image/jpeg`; the caller still checks the file. */
  accept: string;
  /** A document reads best as it is; a profile photo is shown round, as it will appear. */
  previewShape?: 'document' | 'round';
  /** Words for the preview image: "Preview of your document". */
  previewAlt: string;
  name?: string;
  disabled?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/** A picture chosen from this device, shown before it is sent. No upload happens here. */
export function ImageField({ label, hint, error, file, onFileChange, accept, previewShape = 'document', previewAlt, name, disabled, ref }: ImageFieldProps) {
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!file) {
      setPreviewUrl(null);
      return;
    }
    // An object URL keeps the file in memory until it is revoked.
    const url = URL.createObjectURL(file);
    setPreviewUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    onFileChange(event.target.files?.[0] ?? null);
  }

  return (
    <Field label={label} hint={hint} error={error}>
      {(ids) => (
        <div className="image-field">
          <div className={`image-field__preview image-field__preview--${previewShape}`}>
            {previewUrl ? <img src={previewUrl} alt={previewAlt} /> : <ImageIcon aria-hidden="true" size={32} />}
          </div>
          <div className="image-field__picker">
            <input
              ref={ref}
              id={ids.id}
              name={name}
              type="file"
              accept={accept}
              className="image-field__input"
              aria-invalid={ids.invalid || undefined}
              aria-describedby={ids.describedBy}
              disabled={disabled}
              onChange={onChange}
            />
          </div>
        </div>
      )}
    </Field>
  );
}
