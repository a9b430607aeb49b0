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
expect 2 "--sim: expected cpu, vulkan or cuda" mesh sphere:24 --iso 0 --sim metal -o "$tmp/x.ply"
expect 2 "outside the data range" mesh cayley:16 --iso 9 -o "$tmp/x.ply"
expect 2 "--iso is required" mesh cayley:16 -o "$tmp/x.ply"
expect 2 "unknown field 'teapot'" mesh teapot:16 --iso 0 -o "$tmp/x.ply"
# Level sets from meshes: a closed tetrahedron evolves; an open triangle has no inside.
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' >"$tmp/tet.obj"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$tmp/open.obj"
expect 0 "tiles ->" levelset "$tmp/tet.obj" --resolution 24 --mcf 1 --steps 3 -o "$tmp/tet.vdb"
expect 0 "0 steps" levelset "$tmp/tet.vdb" -o "$tmp/tet2.vdb"
expect 0 "3 steps" levelset "$tmp/tet.vdb" --precision fixed16 --mcf 1 --steps 3 -o "$tmp/tet16.vdb"
expect 2 "--precision: expected float32 or fixed16, got 'half'" levelset "$tmp/tet.obj" --precision half -o "$tmp/x.vdb"
expect 2 "3 boundary edges" levelset "$tmp/open.obj" -o "$tmp/open.vdb"
expect 2 "-o out.vdb is required" levelset "$tmp/tet.obj"
expect 2 "--scheme: expected upwind or weno5" levelset "$tmp/tet.obj" --scheme eno -o "$tmp/x.vdb"
expect 2 "one of --steps, --time, --until-converged" levelset "$tmp/tet.obj" --steps 3 --time 1 -o "$tmp/x.vdb"
# Without a CUDA device (or without nvcc) --sim cuda is a device error, not a crash.
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  expect 0 "tiles ->" levelset "$tmp/tet.obj" --resolution 24 --mcf 1 --steps 3 --sim cuda -o "$tmp/x.vdb"
else
  expect 1 "; use --sim cpu" levelset "$tmp/tet.obj" --sim cuda --steps 3 -o "$tmp/x.vdb"
fi
# Dense volumes become level sets at an iso value.
printf '# vtk DataFile Version 3.0\nball\nASCII\nDATASET STRUCTURED_POINTS\nDIMENSIONS 3 3 3\nSPACING 1 1 1\nORIGIN 0 0 0\nPOINT_DATA 27\nSCALARS v float\nLOOKUP_TABLE default\n0 0 0 0 0 0 0 0 0\n0 0 0 0 9 0 0 0 0\n0 0 0 0 0 0 0 0 0\n' >"$tmp/ball.vtk"
expect 0 "tiles (" levelset "$tmp/ball.vtk" --iso 4 --mcf 1 --steps 2 -o "$tmp/ball.vdb"
expect 2 "a volume needs --iso V" levelset "$tmp/ball.vtk" --steps 2 -o "$tmp/ball.vdb"
expect 2 "outside the data range" levelset "$tmp/ball.vtk" --iso 10 --steps 2 -o "$tmp/ball.vdb"
expect 2 "--iso: only for volumes" levelset "$tmp/tet.obj" --iso 1 --steps 2 -o "$tmp/x.vdb"
expect 0 "triangles" mesh "$tmp/tet.vdb" --iso 0 -o "$tmp/tet.ply"
printf 'not a vdb' >"$tmp/bad.vdb"
expect 2 "bad.vdb" mesh "$tmp/bad.vdb" --iso 0 -o "$tmp/x.ply"
# Stage settings are checked before any device is opened: no device line precedes the error.
"$meniscus" capture "$tmp/count.toml" 2>&1 | grep -q "device:" && { echo "FAIL: device opened before the scene was checked"; failures=$((failures + 1)); }
exit $failures
