#!/usr/bin/env bash
# Runs before `npm test`: installs the packages and the browser a fresh machine lacks.
set -euo pipefail
[ -d node_modules/.bin ] || npm install --no-audit --no-fund
if ! command -v "${CHROMIUM_PATH:-chromium}" >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's Chromium for the browser tests..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The browser tests need Chromium: sudo apt-get install chromium (or set CHROMIUM_PATH)." >&2
    exit 1
  fi
fi
