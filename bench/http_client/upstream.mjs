// The local keep-alive server both proxies call in bench/http_client.sh.
import http from "node:http";

const body = JSON.stringify({ symbol: "ABC", price: 12.5 });
http
  .createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
