import { Link, useNavigate } from 'react-router';
import {
  Activity,
  Bell,
  ChevronRight,
  Contact,
  CreditCard,
  Gift,
  KeyRound,
  LifeBuoy,
  LogOut,
  Plug,
  ShieldCheck,
  ShieldQuestion,
  type LucideIcon,
} from 'lucide-react';
import { preferenceLabels, type Preferences } from '@strongroom/contracts/profile.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { useLogout } from '../../lib/api/logout.ts';
import { usePreferences, useSavePreferences } from './api/preferences.ts';
import { ExportDataSection } from './export/export-data-section.tsx';
import './profile-pages.css';

interface SettingsLink {
  to: string;
  label: string;
  description: string;
  Icon: LucideIcon;
}

/** The seed's Accounts list; its "change password" leads to the security settings, where a password is changed with a step-up. */
const accountLinks: readonly SettingsLink[] = [
  { to: '/settings/security', label: 'Change password', description: 'Set a new password for signing in.', Icon: KeyRound },
  { to: '/settings/contact', label: 'Contact details', description: 'Your email address, phone number and postal address.', Icon: Contact },
  { to: '/notifications', label: 'Notifications', description: 'What the bank told you, newest first.', Icon: Bell },
  { to: '/privacy', label: 'Privacy', description: 'Terms, refunds, money delivery and support.', Icon: ShieldQuestion },
  { to: '/deposit', label: 'Payment', description: 'Add money to your accounts.', Icon: CreditCard },
];

const securityLinks: readonly SettingsLink[] = [
  { to: '/settings/security', label: 'Security', description: 'Password, authenticator app, passkeys and where you are signed in.', Icon: ShieldCheck },
  {
    to: '/settings/activity',
    label: 'Security activity',
    description: "Sign-ins and changes to your account, and a way to say “This wasn't me”.",
    Icon: Activity,
  },
  { to: '/settings/connected-apps', label: 'Connected apps', description: 'Apps you let see your data, and ending their access.', Icon: Plug },
];

const exploreLinks: readonly SettingsLink[] = [
  { to: '/invite', label: 'Invite a friend', description: 'Get a $10.00 referral bonus.', Icon: Gift },
  { to: '/help', label: 'Help', description: 'Answers, and secure messages with support.', Icon: LifeBuoy },
];

const switchOrder: readonly (keyof Preferences)[] = ['newsletter', 'textMessages', 'phoneCalls'];

const switchDescriptions: Readonly<Record<keyof Preferences, string>> = {
  newsletter: 'News and offers from the bank by email, about once a month.',
  textMessages: 'Offers by text message. Security codes and alerts come whatever you choose.',
  phoneCalls: 'Calls about products that may suit you. We never ask for a code or a password on a call.',
};

function LinkList({ links }: { links: readonly SettingsLink[] }) {
  return (
    <ul className="settings__list">
      {links.map(({ to, label, description, Icon }) => (
        <li key={`${to}-${label}`}>
          <Link to={to} className="settings__row">
            <Icon aria-hidden="true" size={20} className="settings__icon" />
            <span className="settings__text">
              <span className="settings__label">{label}</span>
              <span className="settings__description">{description}</span>
            </span>
            <ChevronRight aria-hidden="true" size={18} className="settings__chevron" />
          </Link>
        </li>
      ))}
    </ul>
  );
}

function MoreOptions() {
  const preferences = usePreferences();
  const save = useSavePreferences();
  const toast = useToast();

  if (preferences.isPending) {
    return <LoadingLine>Loading your choices…</LoadingLine>;
  }
  if (preferences.isError) return <LoadFailed title="We could not load your choices" query={preferences} headingLevel={3} />;

  const current = preferences.data;
  function change(key: keyof Preferences, value: boolean) {
    save.mutate({ ...current, [key]: value }, { onError: (error) => toast.show(`${preferenceLabels[key]} was not saved: ${error.message}`, 'error') });
  }

  return (
    <div className="settings__switches">
      {switchOrder.map((key) => (
        <Switch
          key={key}
          label={preferenceLabels[key]}
          description={switchDescriptions[key]}
          checked={current[key]}
          busy={save.isPending}
          onCheckedChange={(value) => change(key, value)}
        />
      ))}
    </div>
  );
}

/**
 * /settings (seed section 2): the Accounts list, the security pages, the More Options switches
 * (saved on the server, D12) and the way to Invite and Help that the phone's Explore tab leads to.
 */
export default function SettingsPage() {
  const logout = useLogout();
  const navigate = useNavigate();

  return (
    <Page className="settings">
      <PageMeta title="Settings" description="Your account settings." noIndex />
      <PageHeader title="Settings" />

      <Card as="section" aria-labelledby="settings-accounts" className="settings__section">
        <h2 id="settings-accounts">Accounts</h2>
        <LinkList links={accountLinks} />
        <button
          type="button"
          className="settings__row settings__row--button"
          onClick={() => logout.mutate(undefined, { onSuccess: () => navigate('/') })}
          disabled={logout.isPending}
        >
          <LogOut aria-hidden="true" size={20} className="settings__icon" />
          <span className="settings__text">
            <span className="settings__label">{logout.isPending ? 'Signing out…' : 'Sign out'}</span>
            <span className="settings__description">End this session on this device.</span>
          </span>
        </button>
      </Card>

      <Card as="section" aria-labelledby="settings-security" className="settings__section">
        <h2 id="settings-security">Security</h2>
        <LinkList links={securityLinks} />
      </Card>

      <Card as="section" aria-labelledby="settings-more" className="settings__section">
        <h2 id="settings-more">More Options</h2>
        <p className="settings__lead">How we may contact you about offers. Each choice is saved as soon as you change it.</p>
        <MoreOptions />
      </Card>

      <Card as="section" aria-labelledby="settings-explore" className="settings__section">
        <h2 id="settings-explore">Explore</h2>
        <LinkList links={exploreLinks} />
      </Card>

      <ExportDataSection />

      <ErrorDialog title="Sign-out failed" message={logout.error?.message} onClose={() => logout.reset()} />
    </Page>
  );
}
