#!/usr/bin/env bash
# Install Debian's Chromium for the browser tests (tests/test_browser.py).
# Playwright drives /usr/bin/chromium directly: never `playwright install`,
# which downloads a browser build and fails offline.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
    echo "install-browser: /usr/bin/chromium is already installed"
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "install-browser: /usr/bin/chromium is missing and we are not root;" \
         "run 'sudo apt-get install -y chromium' (the browser tests skip without it)" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
echo "install-browser: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
