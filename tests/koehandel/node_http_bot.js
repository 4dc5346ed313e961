// A bot on Node's http module (keep-alive by default): answers every GET with its query.
const http = require('http');
let connections = 0;
const server = http.createServer((req, res) => {
  const query = req.url.split('?')[1] || '';
  res.setHeader('Content-Type', 'text/plain');
  res.end('echo=' + query + '&conn=' + connections + '\n');
});
server.on('connection', () => { connections += 1; });
server.listen(Number(process.env.ARBITER_PORT), '127.0.0.1');
