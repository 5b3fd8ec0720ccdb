import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** cluster_leases: roles held by one replica at a time, timed by the database's clock as the heartbeats are. */
@Injectable()
export class ClusterLeasesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes each role for `holder` until `leaseSeconds` from now, if it is free, lapsed or already the holder's (a
   * renewal); answers the roles the holder has now. One statement for every role (a replica renews them all every
   * RENEW_MS): two replicas claiming at once cannot both win a role.
   */
  async claim(roles: readonly string[], holder: string, leaseSeconds: number): Promise<Set<string>> {
    const rows = (await this.dataSource.query(
      `INSERT INTO cluster_leases AS l (role, holder, lease_until)
       SELECT role, $2, now() + make_interval(secs => $3) FROM unnest($1::text[]) AS role
       ON CONFLICT (role) DO UPDATE SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until
         WHERE l.holder = EXCLUDED.holder OR l.lease_until < now()
       RETURNING role`,
      [roles, holder, leaseSeconds],
    )) as { role: string }[];
    return new Set(rows.map((row) => row.role));
  }

  /** Gives the role up: the next replica to claim it has it at once. */
  async release(role: string, holder: string): Promise<void> {
    await this.dataSource.query('DELETE FROM cluster_leases WHERE role = $1 AND holder = $2', [role, holder]);
  }
}
