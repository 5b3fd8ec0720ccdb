import type { DataSource } from 'typeorm';
import type { BusEnvelope, RealtimeBus } from '../../platform/bus/realtime-bus.service';
import { UserDirectory } from './user-directory.service';

const row = (role: string) => ({
  id: 'u1',
  email: 'u@example.com',
  role,
  firstName: null,
  lastName: null,
  profileImageUrl: null,
  permissions: [],
  isActive: true,
  activatedAt: null,
  lastLoginAt: null,
  createdAt: new Date(0),
});

it('forgets an account as soon as a userChanged message says it changed on any replica', async () => {
  let stored = row('viewer');
  const dataSource = { getRepository: () => ({ findOneBy: async () => stored }) } as unknown as DataSource;
  let listener: (envelope: BusEnvelope) => void = () => undefined;
  const bus = { subscribe: (handler: typeof listener) => (listener = handler) } as unknown as RealtimeBus;
  const directory = new UserDirectory(dataSource, bus);
  directory.onModuleInit();

  expect((await directory.get('u1'))?.role).toBe('viewer');
  stored = row('operator');
  expect((await directory.get('u1'))?.role).toBe('viewer'); // cached
  listener({ origin: 'another-replica', message: { type: 'userChanged', data: { userId: 'u1' } } });
  expect((await directory.get('u1'))?.role).toBe('operator');
});
