import { Link } from 'react-router';
import { Landmark } from 'lucide-react';

/** The way from a deposit or a withdrawal to 'Your other banks', where the accounts at other banks are linked. */
export function OtherBanksLink() {
  return (
    <Link to="/deposit/sources" className="money-page__link">
      <Landmark aria-hidden="true" size={18} />
      Your other banks
    </Link>
  );
}
