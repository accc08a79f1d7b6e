// A storm of clients for the stopping tests, as a process of its own (so that its work is not the
// test's): `connections` keep-alive connections, each sending creates of fresh ids one after the
// other, until the mock is gone. It prints "storming" once every connection has had an answer,
// then, once every connection has failed, one JSON line: the ids answered 200, and every other
// status it was answered with.
import { request, Agent } from 'node:http';

const [url, connections] = [process.argv[2], Number(process.argv[3])];
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const acknowledged: number[] = [];
const others: Record<string, number> = {};
let answeredOnce = 0;
let next = 1;

const create = (id: number) =>
  new Promise<number>((resolve, reject) => {
    const body = JSON.stringify({ id, name: `storm ${id}` });
    const sent = request(
      `${url}/plants`,
      {
        method: 'POST',
        agent,
        headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'content-length': body.length },
      },
      (answer) => {
        answer.resume();
        answer.once('end', () => resolve(answer.statusCode!));
        answer.once('error', reject);
      },
    );
    sent.once('error', reject);
    sent.end(body);
  });

async function client(): Promise<void> {
  let first = true;
  for (;;) {
    const id = next++;
    let status: number;
    try {
      status = await create(id);
    } catch {
      return; // the mock is gone, or cut this request: no answer
    }
    if (status === 200) acknowledged.push(id);
    else others[status] = (others[status] ?? 0) + 1;
    if (first && ++answeredOnce === connections) process.stdout.write('storming\n');
    first = false;
  }
}

await Promise.all(Array.from({ length: connections }, client));
process.stdout.write(`${JSON.stringify({ acknowledged, others })}\n`);
agent.destroy();
