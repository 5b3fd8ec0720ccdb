import type { FastifyReply, FastifyRequest } from 'fastify';

/** Whether a request is a plain HTML form post (its answers are redirects, not JSON). */
export function isFormPost(request: FastifyRequest): boolean {
  return String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

/** 303 See Other: after a form post, the browser loads `location` with a GET. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.redirect(location, 303);
}
