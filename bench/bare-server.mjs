// The baseline for the active-list benchmark: a bare node:http server returning the same bytes
// from memory. Usage: node bench/bare-server.mjs <file> <port>
import http from 'node:http';
import fs from 'node:fs';

const [file, port] = process.argv.slice(2);
const body = fs.readFileSync(file);
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1');
