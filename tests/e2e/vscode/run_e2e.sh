#!/bin/bash
# End-to-end test of the CodeGraph VS Code extension in a real VS Code (code-server 4.100.3,
# the newest that runs on Node 20) driven by playwright-core in Debian's headless Chromium.
# Installs what it needs (idempotent), builds + installs the .vsix, starts the real server.
#
#   bash tests/e2e/vscode/run_e2e.sh
#
# Environment:
#   E2E_WORK       work folder (default ${TMPDIR:-/tmp}/codegraph-e2e-vscode-<hash of this checkout's path>,
#                  so two checkouts never share one); screenshots in $E2E_WORK/artifacts
#   CODEGRAPH_LSP  absolute path of a codegraph-lsp executable; default: the repo installed
#                  (pip install -e) into $E2E_WORK/venv. "standin" = the stand-in server here.
#   E2E_WS         workspace to open (copied; default tests/e2e/vscode/ws)
#   CS_PORT        code-server port (default: a free port)
# Ends with "E2E vscode: N passed, M failed"; exits non-zero on any failure.
set -euo pipefail
SRC=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$SRC/../../.." && pwd)
export E2E_WORK=${E2E_WORK:-${TMPDIR:-/tmp}/codegraph-e2e-vscode-$(printf %s "$REPO" | cksum | cut -d' ' -f1)}
E=$E2E_WORK
export CS_PORT=${CS_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
WS_SRC=${E2E_WS:-$SRC/ws}
mkdir -p "$E/tmp" "$E/artifacts"
export TMPDIR=$E/tmp
# npm: everything this script needs is set here, so no ~/.npmrc is needed and none can break it.
# Every native module below (argon2 for code-server itself; kerberos, node-pty, spdlog, ... for
# VS Code) is compiled from source by node-gyp, which downloads Node's headers from nodejs.org
# unless it is given a nodedir. The Node install ships them (Debian's nodejs: /usr/include/node).
export npm_config_nodedir=${npm_config_nodedir:-$(node -p 'require("path").resolve(process.execPath, "../..")')}
[ -f "$npm_config_nodedir/include/node/common.gypi" ] \
  || { echo "no Node headers in $npm_config_nodedir/include/node (install Debian's nodejs, or set npm_config_nodedir)" >&2; exit 1; }
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
ts() { date +%s.%N; }
T0=$(ts); T=$T0
phase() { local n; n=$(ts); printf '### %-32s %6.1fs\n' "$1" "$(echo "$n - $T" | bc)"; T=$n; }
finish() { # $1 passed, $2 failed
  printf '### %-32s %6.1fs\n' "total" "$(echo "$(ts) - $T0" | bc)"
  echo "E2E vscode: $1 passed, $2 failed"
  [ "$2" -eq 0 ]
}

# --- 1. Debian packages (only when missing) ------------------------------------------------------
need=()
for p in chromium libkrb5-dev pkg-config ripgrep build-essential curl bc python3-venv; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${need[@]}" >/dev/null
fi
command -v bc >/dev/null || { echo "bc missing" >&2; exit 1; }
phase "apt (${#need[@]} missing)"

# --- 2. the server ----------------------------------------------------------------------------------
if [ "${CODEGRAPH_LSP:-}" = "standin" ]; then
  [ -x "$E/venv/bin/python" ] || python3 -m venv "$E/venv"
  "$E/venv/bin/python" -c "import pygls" 2>/dev/null || "$E/venv/bin/pip" install -q "pygls>=2,<3"
  export STANDIN_PYTHON=$E/venv/bin/python STANDIN_LOG=$E/standin.log
  CODEGRAPH_LSP=$SRC/standin-lsp
elif [ -z "${CODEGRAPH_LSP:-}" ]; then
  [ -x "$E/venv/bin/python" ] || python3 -m venv "$E/venv"
  "$E/venv/bin/pip" install -q -e "$REPO" > "$E/pip.log" 2>&1 || { tail -20 "$E/pip.log"; exit 1; }
  CODEGRAPH_LSP=$E/venv/bin/codegraph-lsp
fi
[ -x "$CODEGRAPH_LSP" ] || { echo "CODEGRAPH_LSP is not an executable: $CODEGRAPH_LSP" >&2; exit 1; }
echo "server: $CODEGRAPH_LSP"
phase "server"

# --- 3. code-server 4.100.3 (work-arounds: the npm settings at the top, and the ripgrep cache below) --
if [ ! -x "$E/cs/node_modules/.bin/code-server" ]; then
  mkdir -p "$E/cs"; cd "$E/cs"; [ -f package.json ] || npm init -y >/dev/null
  # @vscode/ripgrep's postinstall downloads rg from GitHub: pre-seed its cache with Debian's rg
  mkdir -p "$TMPDIR/vscode-ripgrep-cache-1.15.11" "$E/rgtar"; cp /usr/bin/rg "$E/rgtar/rg"
  tar czf "$TMPDIR/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$E/rgtar" rg
  # unsafe_perm: its postinstall refuses root otherwise; yes: node-pty's postinstall runs `npx node-gyp`;
  # build_from_source: argon2 would first try a prebuilt binary from GitHub (unreachable offline)
  npm_config_unsafe_perm=true npm_config_yes=true npm_config_build_from_source=true \
    npm install --no-audit --no-fund code-server@4.100.3 \
    > "$E/cs/install.log" 2>&1 || { tail -40 "$E/cs/install.log"; exit 1; }
  cd "$SRC"
fi
phase "npm code-server"

# --- 4. playwright-core (drives Debian's chromium; no browser download) ------------------------------
mkdir -p "$E/pw"; cp "$SRC/pw/package.json" "$SRC/pw/e2e.js" "$E/pw/"
[ -d "$E/pw/node_modules/playwright-core" ] || (cd "$E/pw" && npm install --no-audit --no-fund >/dev/null)
phase "npm playwright-core"

# --- 5. build + package + install the extension ---------------------------------------------------------
(cd "$REPO/vscode-client" \
  && { [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund >/dev/null; } \
  && npm test > "$E/unit.log" 2>&1 && npm run package > "$E/vsce.log" 2>&1 && cp codegraph.vsix "$E/codegraph.vsix") \
  || { tail -30 "$E/unit.log" "$E/vsce.log" 2>/dev/null; exit 1; }
export CSD=$E/csdata
export XDG_CONFIG_HOME=$CSD/xdg-config XDG_DATA_HOME=$CSD/xdg-data XDG_CACHE_HOME=$CSD/xdg-cache
CS=$E/cs/node_modules/.bin/code-server
CS_FLAGS=(--config "$CSD/config.yaml" --user-data-dir "$CSD/user-data" --extensions-dir "$CSD/extensions")
rm -rf "$CSD"; mkdir -p "$CSD/user-data/User"
printf "bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n" "$CS_PORT" > "$CSD/config.yaml"
python3 - "$CSD/user-data/User/settings.json" "$CODEGRAPH_LSP" <<'PY'
import json, sys
json.dump({
    "workbench.startupEditor": "none", "security.workspace.trust.enabled": False,
    "telemetry.telemetryLevel": "off", "extensions.autoCheckUpdates": False, "extensions.autoUpdate": False,
    "update.mode": "none", "workbench.tips.enabled": False, "window.restoreWindows": "none",
    "chat.disableAIFeatures": True, "workbench.editor.enablePreview": False,
    "codegraph.server.command": [sys.argv[2]], "codegraph.trace.server": "messages",
}, open(sys.argv[1], "w"), indent=2)
PY
"$CS" "${CS_FLAGS[@]}" --install-extension "$E/codegraph.vsix" --force > "$E/install-ext.log" 2>&1 \
  || { cat "$E/install-ext.log"; exit 1; }
phase "unit tests + vsix build + install"

# --- 6. workspace + code-server (own process group: the cleanup kills ext host and server too) -----
rm -rf "$E/ws"; cp -r "$WS_SRC" "$E/ws"; export E2E_WS_DIR=$E/ws
rm -f "$E/artifacts"/*.png
setsid bash -c 'echo $$ > "$0"; exec "$@"' "$CSD/code-server.pgid" "$CS" "${CS_FLAGS[@]}" --disable-telemetry \
  --disable-update-check --disable-workspace-trust --disable-getting-started-override "$E/ws" \
  > "$CSD/code-server.log" 2>&1 &
sleep 0.5; CS_PGID=$(cat "$CSD/code-server.pgid")
cleanup() { kill -TERM -- "-$CS_PGID" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 1 120); do curl -fsS -o /dev/null "http://127.0.0.1:$CS_PORT/healthz" 2>/dev/null && break; sleep 0.5; done
curl -fsS -o /dev/null "http://127.0.0.1:$CS_PORT/healthz" || { tail -20 "$CSD/code-server.log"; finish 0 1; }
phase "code-server listening"

# --- 7. drive the real VS Code UI ------------------------------------------------------------------
set +e
(cd "$E/pw" && timeout 600 node e2e.js) 2>&1 | tee "$E/e2e.log"
set -e
phase "playwright scenario"
# The extension's output channel (server stderr + LSP trace), kept as an artifact.
find "$CSD/user-data/logs" -name "*CodeGraph*.log" -exec cp {} "$E/artifacts/codegraph-output.log" \; 2>/dev/null || true
result=$(grep -o 'RESULT passed=[0-9]* failed=[0-9]*' "$E/e2e.log" | tail -1)
passed=$(echo "$result" | sed -n 's/.*passed=\([0-9]*\).*/\1/p'); failed=$(echo "$result" | sed -n 's/.*failed=\([0-9]*\).*/\1/p')
[ -n "$passed" ] || { passed=0; failed=1; }
if [ "$failed" -ne 0 ] && [ -f "$E/artifacts/codegraph-output.log" ]; then
  echo "--- CodeGraph output (tail) ---"; tail -40 "$E/artifacts/codegraph-output.log"
fi
finish "$passed" "$failed"
