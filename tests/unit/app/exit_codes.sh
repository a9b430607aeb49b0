#!/usr/bin/env bash
# `meniscus` turns bad input into one message naming the file/flag and exit code 2.
set -u
meniscus=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

expect() {  # expect <code> <text in stderr> <args...>
  local code=$1 text=$2
  shift 2
  "$meniscus" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [[ $got -ne $code ]] || ! cat "$tmp/out" "$tmp/err" | grep -qF -- "$text"; then
    echo "FAIL: meniscus $* -> exit $got, stderr:"; cat "$tmp/err"
    failures=$((failures + 1))
  else
    echo "ok: meniscus $* -> exit $got: $(head -c 200 "$tmp/err")"
  fi
}

printf 'name = "bad"\n[camera]\nfov_y_degrees = nan\n' >"$tmp/nan.toml"
printf 'name = "bad"\n[[stage]]\ntype = "ballistic"\ncount = -5\n' >"$tmp/count.toml"
printf 'name = "bad"\n[[stage]]\ntype = "sph_magic"\n' >"$tmp/type.toml"

expect 2 "nan.toml:3:" capture "$tmp/nan.toml" --size 64x64
expect 2 "field 'stage[0].count'" capture "$tmp/count.toml" --size 64x64
expect 2 "unknown stage type \"sph_magic\"" capture "$tmp/type.toml" --size 64x64
expect 2 "no such file" capture "$tmp/missing.toml"
expect 2 "--frames" capture "$tmp/nan.toml" --frames zero
expect 2 "unknown command" explode
expect 0 "meniscus 0." --version
expect 0 "triangles" mesh sphere:24 --iso 0 -o "$tmp/sphere.ply"
expect 0 "cells/s, vulkan" mesh sphere:24 --iso 0 --sim vulkan --validation -o "$tmp/sphere_gpu.obj"
expect 2 "--sim: expected cpu or vulkan" mesh sphere:24 --iso 0 --sim cuda -o "$tmp/x.ply"
expect 2 "outside the data range" mesh cayley:16 --iso 9 -o "$tmp/x.ply"
expect 2 "--iso is required" mesh cayley:16 -o "$tmp/x.ply"
expect 2 "unknown field 'teapot'" mesh teapot:16 --iso 0 -o "$tmp/x.ply"
# Stage settings are checked before any device is opened: no device line precedes the error.
"$meniscus" capture "$tmp/count.toml" 2>&1 | grep -q "device:" && { echo "FAIL: device opened before the scene was checked"; failures=$((failures + 1)); }
exit $failures
