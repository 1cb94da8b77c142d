// The Node side of bench/http_client.sh: the same handler with the built-in fetch (undici,
// keep-alive by default).
import http from "node:http";

const upstream = process.env.UPSTREAM;
http
  .createServer(async (req, res) => {
    try {
      const r = await fetch(upstream);
      const body = await r.text();
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    } catch (e) {
      res.writeHead(500);
      res.end(String(e));
    }
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
