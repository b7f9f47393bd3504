#!/usr/bin/env bash
# Installs the Debian packages the app needs, only where missing: gettext (translations), pango and fonts
# (WeasyPrint PDFs), poppler-utils (checking PDFs in tests) and, with --browser, chromium for the
# Playwright tests. Already-present packages cost nothing.
set -euo pipefail
packages=(gettext libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core poppler-utils)
if [ "${1:-}" = "--browser" ]; then
  packages+=(chromium)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Missing system packages: ${missing[*]} (install them with your system's package manager)" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing system packages: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
