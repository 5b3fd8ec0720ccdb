/** The status context's public face: what other contexts and the composition root may use (see README.md). */
export { STATUS_ENTITIES } from './tables';
export { StatusModule } from './status.module';
export { StatusPagesService } from './status-pages.service';
export { mayPublishDomains } from './status-access';
export type { StatusComponentEntity } from './entities/status-component.entity';
export type { StatusPageEntity } from './entities/status-page.entity';
