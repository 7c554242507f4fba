import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { identityMessages } from '@strongroom/contracts/onboarding.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, sessionAt, unauthenticated, validationFailed } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('onboarding guard', () => {
  it('shows the sign-in screen to a visitor, keeping the address', async () => {
    renderApp('/registeration', { 'GET /api/v1/me': unauthenticated });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to online banking' })).toBeTruthy();
    expect(window.location.pathname).toBe('/registeration');
  });

  it('sends a customer to the screen of the step they are at', async () => {
    renderApp('/phonesignup', { 'GET /api/v1/me': sessionAt('identity') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Confirm your identity' })).toBeTruthy();
    expect(window.location.pathname).toBe('/registeration');
  });

  it('sends a customer who has not finished onboarding from the banking pages to their step', async () => {
    renderApp('/dashboard', { 'GET /api/v1/me': sessionAt('profile-photo') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add a profile photo' })).toBeTruthy();
    expect(window.location.pathname).toBe('/profilephoto');
  });
});

describe('/phonesignup', () => {
  it('offers every country with its calling code, United States first chosen, and checks the number for it', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/phonesignup', {
      'GET /api/v1/me': sessionAt('phone'),
      'POST /api/v1/onboarding/phone': { status: 200, body: { message: 'We sent a 4-digit code by SMS. It works for 10 minutes.' } },
    });
    const country = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Country' });
    expect(country.value).toBe('US');
    expect(country.selectedOptions[0]?.textContent).toBe('United States (+1)');
    expect(country.options.length).toBeGreaterThan(240);
    expect(screen.getByRole('option', { name: 'United Kingdom (+44)' })).toBeTruthy();

    const number = screen.getByRole('textbox', { name: 'Phone number' });
    await user.type(number, '555 12');
    await user.click(screen.getByRole('button', { name: 'Text me a code' }));
    expect(screen.getByText('This is not a valid phone number for the chosen country')).toBeTruthy();
    expect(document.activeElement).toBe(number);

    await user.clear(number);
    await user.type(number, '202 555 0147');
    await user.click(screen.getByRole('button', { name: 'Text me a code' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Enter the code' })).toBeTruthy();
    expect(screen.getByText('+1 202 555 0147')).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/onboarding/phone')) ?? [];
    expect(jsonBodyOf(init)).toEqual({ countryCode: 'US', phoneNumber: '202 555 0147' });
  });
});

describe('/phoneverification', () => {
  it('sends the code once the four boxes are filled, and a wrong one clears the boxes with the server’s message', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    renderApp('/phoneverification', {
      'GET /api/v1/me': sessionAt('phone'),
      'POST /api/v1/onboarding/phone/verify': (init) => {
        sent.push(jsonBodyOf(init));
        return sent.length === 1 ? validationFailed({ code: 'That code is not right. Check the SMS and try again.' }) : sessionAt('identity');
      },
    });
    const first = await screen.findByRole('textbox', { name: 'Digit 1 of 4' });
    expect(document.activeElement).toBe(first);
    await user.keyboard('1234');
    expect(await screen.findByText('That code is not right. Check the SMS and try again.')).toBeTruthy();
    expect(screen.getAllByRole<HTMLInputElement>('textbox').map((box) => box.value)).toEqual(['', '', '', '']);
    await vi.waitFor(() => expect(document.activeElement).toBe(first));

    await user.paste('4321');
    expect(await screen.findByRole('heading', { level: 1, name: 'Confirm your identity' })).toBeTruthy();
    expect(sent).toEqual([{ code: '1234' }, { code: '4321' }]);
  });

  it('really resends the code, and shows the server’s wait when it is too soon', async () => {
    const user = userEvent.setup();
    renderApp('/phoneverification', {
      'GET /api/v1/me': sessionAt('phone'),
      'POST /api/v1/onboarding/phone/resend': {
        status: 429,
        body: { error: { code: 'rate_limited', message: 'We just sent a code. You can ask for another in a minute.' } },
        headers: { 'retry-after': '30' },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Resend code' }));
    expect(await screen.findByText('We just sent a code. You can ask for another in a minute.')).toBeTruthy();
    expect(screen.getByText(/You can ask for another code in (29|30) s\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Change the phone number' }).getAttribute('href')).toBe('/phonesignup');
  });
});

describe('/registeration', () => {
  it('after a rejection, says why as plain text and offers the form to send a new document', async () => {
    renderApp('/registeration', {
      'GET /api/v1/me': sessionAt('identity'),
      'GET /api/v1/onboarding/identity': { status: 200, body: { status: 'rejected', reason: '<b>The photo is blurred</b>' } },
    });
    expect(await screen.findByText(/We could not verify your identity: <b>The photo is blurred<\/b>\./)).toBeTruthy();
    expect(document.querySelector('.notice b')).toBeNull();
    expect(screen.getByRole('button', { name: 'Send for checking' })).toBeTruthy();
  });

  it('refuses a file that is not a PNG or JPEG, or over 5 MB, with the server’s messages', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderApp('/registeration', { 'GET /api/v1/me': sessionAt('identity') });
    const picker = await screen.findByLabelText('Passport or ID');
    await user.upload(picker, new File(['<svg/>'], 'passport.svg', { type: 'image/svg+xml' }));
    expect(await screen.findByText('Image mime type is not valid')).toBeTruthy();

    await user.upload(picker, new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'passport.png', { type: 'image/png' }));
    expect(await screen.findByText('Image mime type is not valid')).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Preview of your document' })).toBeNull();

    const tooLarge = new File([pngBytes, new Uint8Array(5 * 1024 * 1024)], 'passport.png', { type: 'image/png' });
    await user.upload(picker, tooLarge);
    expect(await screen.findByText('The image must be 5 MB or smaller')).toBeTruthy();

    await user.upload(picker, new File([pngBytes], 'passport.png', { type: 'image/png' }));
    expect(await screen.findByRole('img', { name: 'Preview of your document' })).toBeTruthy();
    expect(screen.queryByText('The image must be 5 MB or smaller')).toBeNull();
    expect(picker.getAttribute('aria-invalid')).toBeNull();
  });

  it('asks for every field and the image, focusing the first that is missing', async () => {
    const user = userEvent.setup();
    renderApp('/registeration', { 'GET /api/v1/me': sessionAt('identity') });
    await user.click(await screen.findByRole('button', { name: 'Send for checking' }));
    expect(await screen.findByText('Choose an image to upload')).toBeTruthy();
    // The ID number, street, city and ZIP code; the country starts on the United States.
    expect(screen.getAllByText('field should not be empty')).toHaveLength(4);
    expect(screen.getByText(identityMessages.idTypeRequired)).toBeTruthy();
    expect(screen.getByText(identityMessages.birthDateInvalid)).toBeTruthy();
    expect(screen.getByText(identityMessages.stateInvalid)).toBeTruthy();
    expect(screen.queryByText('choose a country')).toBeNull();
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Passport or ID')));
  });

  it('sends the image and the details as one multipart form, and stops on a failed upload', async () => {
    const user = userEvent.setup();
    let body: unknown;
    renderApp('/registeration', {
      'GET /api/v1/me': sessionAt('identity'),
      'POST /api/v1/onboarding/identity': (init) => {
        body = init?.body;
        return { status: 413, body: { error: { code: 'payload_too_large', message: 'The image must be 5 MB or smaller' } } };
      },
    });
    await user.upload(await screen.findByLabelText('Passport or ID'), new File([pngBytes], 'passport.png', { type: 'image/png' }));
    await screen.findByRole('img', { name: 'Preview of your document' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind of ID' }), 'ssn');
    await user.type(screen.getByRole('textbox', { name: 'ID number' }), '123-45-6789');
    await user.type(screen.getByLabelText('Date of birth'), '1985-06-15');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'US');
    await user.type(screen.getByRole('textbox', { name: 'Street address' }), '1 Main Street{Enter}Apartment 4B');
    await user.type(screen.getByRole('textbox', { name: 'City' }), 'Columbus');
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Ohio');
    await user.type(screen.getByRole('textbox', { name: 'ZIP code' }), '43215-1234');
    await user.click(screen.getByRole('button', { name: 'Send for checking' }));

    expect(await screen.findByText('The image must be 5 MB or smaller')).toBeTruthy();
    expect(window.location.pathname).toBe('/registeration');
    expect(body).toBeInstanceOf(FormData);
    const form = body instanceof FormData ? body : new FormData();
    expect(form.get('idType')).toBe('ssn');
    expect(form.get('idNumber')).toBe('123-45-6789');
    expect(form.get('dateOfBirth')).toBe('1985-06-15');
    expect(form.get('country')).toBe('US');
    expect(form.get('address')).toBe('1 Main Street\nApartment 4B');
    expect(form.get('city')).toBe('Columbus');
    expect(form.get('state')).toBe('OH');
    expect(form.get('zipCode')).toBe('43215-1234');
    expect(form.get('document')).toBeInstanceOf(File);
  });
});

describe('/registeration, each ID number by its kind', () => {
  it('says under the field what is wrong with "abc" as a Social Security number, and what a passport number looks like', async () => {
    const user = userEvent.setup();
    renderApp('/registeration', { 'GET /api/v1/me': sessionAt('identity') });
    const kind = await screen.findByRole('combobox', { name: 'Kind of ID' });
    await user.selectOptions(kind, 'ssn');
    const number = screen.getByRole('textbox', { name: 'ID number' });
    await user.type(number, 'abc');
    await user.tab();
    expect(await screen.findByText(identityMessages.ssnInvalid)).toBeTruthy();
    expect(number.getAttribute('aria-invalid')).toBe('true');
    await user.selectOptions(kind, 'passport');
    expect(screen.getByText('9 letters and digits, as printed on your passport.')).toBeTruthy();
  });
});

describe('/phoneverification, a number another customer has', () => {
  it('takes the customer back to the phone number, the reason under its field', async () => {
    const user = userEvent.setup();
    renderApp('/phoneverification', {
      'GET /api/v1/me': sessionAt('phone'),
      'POST /api/v1/onboarding/phone/verify': {
        status: 409,
        body: { error: { code: 'conflict', message: identityMessages.phoneTaken, fields: { phoneNumber: identityMessages.phoneTaken } } },
      },
    });
    await screen.findByRole('textbox', { name: 'Digit 1 of 4' });
    await user.keyboard('1234');
    expect(await screen.findByText(identityMessages.phoneTaken)).toBeTruthy();
    expect(window.location.pathname).toBe('/phonesignup');
    const phoneNumber = screen.getByRole('textbox', { name: 'Phone number' });
    expect(phoneNumber.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(phoneNumber);
  });
});

describe('/profilephoto and /success', () => {
  it('uploads the photo, then says the account is created and leads to the dashboard', async () => {
    const user = userEvent.setup();
    let step: 'profile-photo' | 'dashboard' = 'profile-photo';
    renderApp('/profilephoto', {
      'GET /api/v1/me': () => sessionAt(step),
      'POST /api/v1/onboarding/profile-photo': () => {
        step = 'dashboard';
        return { ...sessionAt('dashboard'), status: 201 };
      },
      'GET /api/v1/accounts': { status: 200, body: [] },
    });
    await user.click(await screen.findByRole('button', { name: 'Upload photo' }));
    expect(screen.getByText('Choose an image to upload')).toBeTruthy();
    await user.upload(screen.getByLabelText('Profile photo'), new File([pngBytes], 'me.png', { type: 'image/png' }));
    await screen.findByRole('img', { name: 'Preview of your profile photo' });
    await user.click(screen.getByRole('button', { name: 'Upload photo' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Account Created!' })).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Take me to signin' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your dashboard' })).toBeTruthy();
    expect(window.location.pathname).toBe('/dashboard');
  });
});
