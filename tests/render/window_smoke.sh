#!/usr/bin/env bash
# Starts `meniscus run` in a real window under Xvfb for a few frames and checks that it
# presented every frame and exited cleanly with validation on.
set -euo pipefail
meniscus=$1
scene=$2
frames=20
if ! command -v xvfb-run >/dev/null; then
  echo "xvfb-run not installed (tools/install-deps.sh installs it)" >&2
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# -a picks a free display number, so parallel test runs do not collide.
if ! xvfb-run -a -s "-screen 0 1024x768x24" "$meniscus" run "$scene" --frames "$frames" --validation --size 640x360 >"$log" 2>&1; then
  cat "$log"
  echo "meniscus run exited with an error" >&2
  exit 1
fi
cat "$log"
grep -q "presented $frames frames" "$log" || { echo "expected 'presented $frames frames'" >&2; exit 1; }
if grep -q "validation:" "$log"; then echo "validation messages reported" >&2; exit 1; fi
if grep -q "running headless" "$log"; then echo "fell back to headless under Xvfb" >&2; exit 1; fi
