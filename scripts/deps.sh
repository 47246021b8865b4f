#!/usr/bin/env bash
# Install the Debian packages hodyn needs — only those that are missing.
# Usage: scripts/deps.sh [extra-package ...]
# Fast (one dpkg-query per package, no apt-get) when everything is present.
set -euo pipefail

packages=(cmake g++ make libeigen3-dev libgtest-dev libbenchmark-dev
          nlohmann-json3-dev liburdfdom-dev libmujoco-dev libsodium-dev python3 python3-matplotlib
          "$@")

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "deps: installing missing packages: ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "deps: not root and sudo is not available; install manually: ${missing[*]}" >&2
    exit 1
  fi
fi

"${sudo_cmd[@]}" apt-get update
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
