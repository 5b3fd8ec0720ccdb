import { manualReason } from './manual-control';
import { publicName } from './public-name';

describe('publicName', () => {
  it('names a person by name, else by role, else as someone, never by an e-mail address', () => {
    expect(publicName({ firstName: 'Ada', lastName: 'Lovelace', role: 'admin' })).toBe('Ada Lovelace');
    expect(publicName({ firstName: null, lastName: ' Lovelace ', role: 'admin' })).toBe('Lovelace');
    expect(publicName({ firstName: null, lastName: null, role: 'operator' })).toBe('an operator');
    expect(publicName({ firstName: ' ', lastName: null, role: 'super_admin' })).toBe('a super administrator');
    expect(publicName({ firstName: null, lastName: null, role: null })).toBe('someone');
    // a provider that put the address in the given name
    expect(publicName({ firstName: 'ada@example.com', lastName: null, role: 'admin' })).toBe('an administrator');
  });

  it('starts a sentence with a capital', () => {
    expect(publicName({ firstName: null, lastName: null, role: 'operator' }, { startsSentence: true })).toBe('An operator');
    expect(publicName({ firstName: 'de', lastName: 'Gaulle', role: 'viewer' }, { startsSentence: true })).toBe('De Gaulle');
  });

  it('words the journal’s reason for a manual control with it', () => {
    expect(manualReason('force-open', { firstName: 'Omar', lastName: null, role: 'operator' })).toBe('forced open by Omar');
    expect(manualReason('reset', { firstName: null, lastName: null, role: 'admin' })).toBe('reset by an administrator');
  });
});
