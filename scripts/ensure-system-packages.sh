#!/usr/bin/env bash
# Make sure the Debian packages named on the command line are installed.
# As root it installs them with apt-get; otherwise it prints the exact command and fails.
set -euo pipefail
missing=()
for pkg in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "soloscope needs these system packages, and this is not a Debian-like system: ${missing[*]}" >&2
  echo "Install their equivalents with your package manager, then run make again." >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  echo "Installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "soloscope needs these system packages: ${missing[*]}" >&2
  echo "Run this, then run make again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
