#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what is missing, builds with -Werror and runs every test: unit,
# CLI on fixture roots, completions, man pages and the patched kernel in QEMU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRECLAIM_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
exec ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
