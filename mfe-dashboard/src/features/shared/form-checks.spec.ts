import { channelUrlSchema } from '@cbh/contracts';
import { serverProblems, urlProblem } from './form-checks';

it('judges an address the hub calls as channelUrlSchema does, in its words', () => {
  for (const url of [
    'https://hooks.example.com/x',
    'http://10.0.0.5:8080/actuator/prometheus',
    'ftp://example.com',
    'example.com',
    'https://',
    `https://example.com/${'a'.repeat(2100)}`,
  ]) {
    const schema = channelUrlSchema.safeParse(url);
    expect(urlProblem(url)).toBe(schema.success ? undefined : schema.error.issues[0]!.message);
  }
});

it('places each field the API names under that field, anything else on the form', () => {
  const refusal = (status: number, message: string) => ({ status, data: { statusCode: status, error: 'Bad Request', message } });
  expect(
    serverProblems(refusal(400, 'url: must be an https URL; recipients.1: must be an e-mail address'), ['url', 'recipients'], ''),
  ).toEqual({
    url: 'must be an https URL',
    recipients: 'must be an e-mail address',
  });
  expect(serverProblems(refusal(409, 'name: On-call is taken'), ['name'], '')).toEqual({ name: 'On-call is taken' });
  expect(serverProblems(refusal(403, 'Missing permission: domain_management'), ['name'], '')).toEqual({
    form: 'Missing permission: domain_management',
  });
  expect(serverProblems({ status: 'FETCH_ERROR' }, ['name'], 'Failed to save.')).toEqual({ form: 'Failed to save.' });
});
