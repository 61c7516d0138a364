#!/usr/bin/env bash
# The packed client as an integrator gets it: `npm run sdk:pack` makes the tarball, which is installed
# into an empty folder (its dependency from the npm registry or npm's cache). Then:
# - Node 20, 22 and 24 import it as an ES module and require it from CommonJS (esm.mjs, cjs.cjs);
#   the project's Node, the machine's, and any of the three majors neither is, from the npm
#   registry's `node` package, kept under node_modules/.cache/sdk-node/;
# - TypeScript type-checks an integrator's code and every `ts` example of the READMEs and
#   docs/typescript-client.md against it: strict with verbatimModuleSyntax, under moduleResolution
#   bundler and node16 (ES module and CommonJS); the examples also as CommonJS files, which refuse
#   a top-level await;
# - the source compiles under the package's own strict settings (verbatimModuleSyntax included).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
cd "$root"
project_node="$root/node_modules/.bin/node"
tsc=("$project_node" "$root/node_modules/typescript/bin/tsc")

echo "-- the source under the package's strict settings"
"${tsc[@]}" -p clients/typescript/tsconfig.build.json

echo "-- npm run sdk:pack"
npm run --silent sdk:pack >/dev/null
version=$("$project_node" -p "require('./clients/typescript/package.json').version")
tarball="$root/dist/sdk/callcenter-integration-client-$version.tgz"
listed=$(tar -tzf "$tarball" | sort | tr '\n' ' ')
wanted="package/LICENSE package/README.md package/dist/index.d.mts package/dist/index.d.ts package/dist/index.js package/dist/index.mjs package/package.json "
if [ "$listed" != "$wanted" ]; then
  echo "the tarball holds: $listed; expected: $wanted" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/checks.cjs "$here"/esm.mjs "$here"/cjs.cjs "$here"/consumer.ts "$here"/consumer.cts "$here"/tsconfig.*.json "$work"/
cp "$work"/consumer.ts "$work"/consumer.mts
mkdir "$work/examples"
for doc in README.md clients/typescript/README.md docs/typescript-client.md; do
  # Each ```ts block is a module of its own, compiled as .ts (bundler), .mts and .cts (node16).
  awk -v out="$work/examples/$(echo "${doc%.md}" | tr / -)" '/^```ts$/ { n++; on = 1; next } /^```$/ { on = 0; next } on { print > (out "-" n ".ts") }' "$doc"
done
for example in "$work"/examples/*.ts; do
  cp "$example" "${example%.ts}.mts"
  cp "$example" "${example%.ts}.cts"
done
echo "-- $(ls "$work"/examples/*.ts | wc -l) documented examples"

echo "-- the tarball installed into an empty folder"
types_node=$("$project_node" -p "require('./package.json').devDependencies['@types/node']")
typescript=$("$project_node" -p "require('./package.json').devDependencies.typescript")
(cd "$work" && echo '{ "name": "integrator", "private": true }' >package.json &&
  npm install --no-audit --no-fund --prefer-offline --loglevel=error "$tarball" "typescript@$typescript" "@types/node@$types_node" >/dev/null)

echo "-- type checks: moduleResolution bundler, node16 (ES module and CommonJS)"
for config in bundler node16 commonjs; do
  (cd "$work" && "$project_node" node_modules/typescript/bin/tsc -p "tsconfig.$config.json")
done

# The Node binaries to run on: the project's, the machine's, and from the registry each of 20, 22
# and 24 that neither of them is.
nodes=("$project_node")
[ -x /usr/bin/node ] && nodes+=(/usr/bin/node)
have=" $(for n in "${nodes[@]}"; do "$n" -p 'process.versions.node.split(".")[0]'; done | tr '\n' ' ')"
for major in 20 22 24; do
  case "$have" in *" $major "*) continue ;; esac
  cache="$root/node_modules/.cache/sdk-node/$major"
  if [ ! -x "$cache/node_modules/.bin/node" ]; then
    mkdir -p "$cache"
    echo "{ \"private\": true, \"allowScripts\": { \"node\": true } }" >"$cache/package.json"
    (cd "$cache" && npm install --no-audit --no-fund --prefer-offline --loglevel=error "node@$major" >/dev/null)
  fi
  nodes+=("$cache/node_modules/.bin/node")
done

for node in "${nodes[@]}"; do
  (cd "$work" && "$node" esm.mjs && "$node" cjs.cjs)
done
echo "-- the packed client: ok"
