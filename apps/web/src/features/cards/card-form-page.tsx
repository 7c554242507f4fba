import { useNavigate } from 'react-router';
import { PageMeta } from '../../components/page-meta.tsx';
import { CardScreenData } from './card-data.tsx';
import { CardRequestForm } from './card-request-form.tsx';
import './cards.css';

/** /card-form and /new-card-form: the request form, or the approval notice while a request waits. */
export default function CardFormPage() {
  const navigate = useNavigate();
  return (
    <div className="cards">
      <PageMeta title="New card" description="Request a card." noIndex />
      <header className="cards__header">
        <h1>New card</h1>
        <p>Choose the card you want.</p>
      </header>
      <CardScreenData>
        {({ cards, accounts, defaultName }) => (
          <CardRequestForm cards={cards} accounts={accounts} defaultName={defaultName} onRequested={() => void navigate('/card')} />
        )}
      </CardScreenData>
    </div>
  );
}
