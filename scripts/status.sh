#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what is missing, builds, and runs `reclaimctl status` on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF >/dev/null
cmake --build build -j"$(nproc)"
exec build/cli/reclaimctl status "$@"
