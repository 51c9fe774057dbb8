import { spawn } from 'node:child_process';
import { createHttpClient } from '../src/net/http-client.ts';
const child = spawn(process.execPath, ['-e', `
const http=require('node:http');const s=http.createServer({keepAlive:true},(req,res)=>{req.resume();req.on('end',()=>{res.writeHead(200,{'content-length':2});res.end('ok');});});
s.listen(0,'127.0.0.1',()=>process.send(s.address().port));process.on('disconnect',()=>process.exit(0));`], {stdio:['ignore','inherit','inherit','ipc']});
const port = await new Promise(r=>child.once('message',r));
const W=Number(process.argv[2]||128);
const client = createHttpClient({ maxSocketsPerHost: W, hostPolicy: { allowLoopback: true } });
for (const n of [1000, 10000, 10000]) {
const t0=performance.now(); let next=0;
await Promise.all(Array.from({length:W},async()=>{while(next<n){const i=next++; const r = await client.request({method:'POST', url:`http://127.0.0.1:${port}/cb/${i}`, headers:{'content-type':'application/x-www-form-urlencoded'}, body:'url=http%3A%2F%2Fx', timeoutMs:4000, maxRedirects:0, maxBodyBytes:65536}); if(!r.ok) throw new Error(r.error.message);}}));
console.log(n, ((performance.now()-t0)/1000).toFixed(3),'s', 'rss', (process.memoryUsage.rss()/1048576).toFixed(0));
}
client.close(); child.disconnect();
