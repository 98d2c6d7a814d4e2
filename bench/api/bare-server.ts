// A bare node:http server answering one fixed body with the same headers the API sends: the ceiling the API
// is compared to. Run as its own process: `node bare-server.ts <body-file> <port>`.
import fs from 'node:fs';
import http from 'node:http';

const [bodyFile, port] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile ?? '');
const server = http.createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
  });
  response.end(body);
});
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
