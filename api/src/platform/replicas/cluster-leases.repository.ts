import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** cluster_leases: roles held by one replica at a time, timed by the database's clock as the heartbeats are. */
@Injectable()
export class ClusterLeasesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes the role for `holder` until `leaseSeconds` from now, if it is free, lapsed or already the holder's (a
   * renewal); true when the holder has it now. One statement: two replicas claiming at once cannot both win.
   */
  async claim(role: string, holder: string, leaseSeconds: number): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `INSERT INTO cluster_leases AS l (role, holder, lease_until) VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT (role) DO UPDATE SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until
         WHERE l.holder = EXCLUDED.holder OR l.lease_until < now()
       RETURNING holder`,
      [role, holder, leaseSeconds],
    )) as { holder: string }[];
    return rows.length > 0;
  }

  /** Gives the role up: the next replica to claim it has it at once. */
  async release(role: string, holder: string): Promise<void> {
    await this.dataSource.query('DELETE FROM cluster_leases WHERE role = $1 AND holder = $2', [role, holder]);
  }
}
