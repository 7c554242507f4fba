/**
 * Where a customer may live (docs/decisions/055-customer-identification-fields.md): the 50 states,
 * the District of Columbia and the inhabited territories, by their USPS codes. The identity step
 * offers them in a select and the server takes nothing else, so a state is always one of these.
 */
export interface UsState {
  code: string;
  name: string;
  /** A territory rather than a state or DC, listed after them. */
  territory: boolean;
}

const statesAndDistrict: readonly (readonly [string, string])[] = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
];

const territories: readonly (readonly [string, string])[] = [
  ['AS', 'American Samoa'],
  ['GU', 'Guam'],
  ['MP', 'Northern Mariana Islands'],
  ['PR', 'Puerto Rico'],
  ['VI', 'U.S. Virgin Islands'],
];

export const usStates: readonly UsState[] = [
  ...statesAndDistrict.map(([code, name]) => ({ code, name, territory: false })),
  ...territories.map(([code, name]) => ({ code, name, territory: true })),
];

const stateNames: ReadonlyMap<string, string> = new Map(usStates.map((state) => [state.code, state.name]));

export function isUsStateCode(code: string): boolean {
  return stateNames.has(code);
}

/** 'IL' -> 'Illinois'; a value from before the list (free text) is shown as it was typed. */
export function usStateName(code: string): string {
  return stateNames.get(code) ?? code;
}
