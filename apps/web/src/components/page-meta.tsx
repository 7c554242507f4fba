import { useBankIdentity } from '../lib/bank-identity.ts';

export interface PageMetaProps {
  /** The page's own name; the bank's name is added after it. Leave out on the home page. */
  title?: string;
  description: string;
  /** Pages a search engine should not list: sign-in, the customer area, not-found. */
  noIndex?: boolean;
}

/** Document title and meta description of one page; React 19 moves these into <head>. */
export function PageMeta({ title, description, noIndex = false }: PageMetaProps) {
  const { name } = useBankIdentity();
  return (
    <>
      <title>{title ? `${title} | ${name}` : `${name}: online banking, savings, checking and cards`}</title>
      <meta name="description" content={description} />
      {noIndex ? <meta name="robots" content="noindex" /> : null}
    </>
  );
}
