// The registry reachable here lacks some platform-specific optional packages (e.g. other OSes'
// @unrs/resolver-binding-*). `npm install` skips them but leaves the edges in package-lock.json,
// and `npm ci` then refuses the lock as out of sync. Drop optional edges to packages the lock
// does not contain. Run after every `npm install <pkg>`: npm run lock:tidy
const fs = require('node:fs');
const file = require('node:path').join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const present = new Set(Object.keys(lock.packages));
const removed = [];
for (const [where, entry] of Object.entries(lock.packages)) {
  for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
    const nested = where ? `${where}/node_modules/${dep}` : `node_modules/${dep}`;
    if (!present.has(nested) && !present.has(`node_modules/${dep}`)) {
      delete entry.optionalDependencies[dep];
      removed.push(dep);
    }
  }
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(removed.length ? `lock: dropped ${removed.length} unavailable optional edge(s)` : 'lock: tidy');
