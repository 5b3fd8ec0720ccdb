import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OutboxEmailEntity } from './entities/outbox-email.entity';
import type { Mail } from './mail';

/** The outbox of e-mails. Its times come from the database clock, like created_at's default. */
@Injectable()
export class OutboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get outbox() {
    return this.dataSource.getRepository(OutboxEmailEntity);
  }

  /** Writes an e-mail before it is sent; returns the new row's id. */
  async add(mail: Mail): Promise<string> {
    const email = this.outbox.create({ toAddress: mail.to, subject: mail.subject, body: mail.text });
    // insert() fills in the generated id from the statement's RETURNING
    await this.outbox.insert(email);
    return email.id;
  }

  async markSent(id: string): Promise<void> {
    await this.outbox.update({ id }, { sentAt: () => 'now()' });
  }
}
