// The framework's floor for bench:api: a bare Nest application on Fastify in a process of its own, as the API runs,
// answering GET <path> with the same JSON as the API, with none of the API's hooks, guards, sessions or logging.
// Forked by bench/api-throughput.mjs, which sends { path, body, port } and waits for 'up'.
import 'reflect-metadata';
import { Controller, Get, Header, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';

process.once('message', async ({ path, body, port }) => {
  const answer = Buffer.from(body);
  // decorators applied as functions: this file runs as plain JavaScript
  class FloorController {
    answer() {
      return answer;
    }
  }
  const method = Object.getOwnPropertyDescriptor(FloorController.prototype, 'answer');
  Header('content-type', 'application/json; charset=utf-8')(FloorController.prototype, 'answer', method);
  Get(path)(FloorController.prototype, 'answer', method);
  Controller()(FloorController);
  class FloorModule {}
  Module({ controllers: [FloorController] })(FloorModule);
  const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
  await app.listen(port, '127.0.0.1');
  process.send('up');
});
