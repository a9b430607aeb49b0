#!/usr/bin/env bash
# Issue 18's hostile inputs through the commands users run: each one exits 2 within a time
# limit, with a message naming the file and the field; none crashes (exit >= 128), hangs
# (timeout's 124) or fails anonymously (exit 1).
set -u
meniscus=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

expect() {  # expect <code> <text in stderr> <args...>
  local code=$1 text=$2
  shift 2
  timeout 60 "$meniscus" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [[ $got -ne $code ]] || ! grep -qF -- "$text" "$tmp/err"; then
    echo "FAIL: meniscus ${*:0:4} -> exit $got (want $code and '$text'), stderr:"; head -c 600 "$tmp/err"; echo
    failures=$((failures + 1))
  else
    echo "ok: exit $got: $(head -c 240 "$tmp/err")"
  fi
}

nhdr() {  # nhdr <file> <sizes> <data file> [type]
  printf 'NRRD0004\ndimension: 3\nsizes: %s\ntype: %s\nencoding: raw\ndata file: %s\n' "$2" "${4:-uchar}" "$3" >"$1"
}
head -c 8 /dev/zero >"$tmp/slice1.raw"
nhdr "$tmp/n.nhdr" "2 2 2" "slice%n.raw 1 2 1"
nhdr "$tmp/s.nhdr" "2 2 2" "slice%s%s%s%s.raw 1 2 1"
nhdr "$tmp/range.nhdr" "2 2 2" "slice%d.raw 1 2000000000 1"
nhdr "$tmp/zero.nhdr" "64 64 64" "/dev/zero"
printf 'NRRD0004\ndimension: 3\nsizes: 1024 1024 1024\ntype: float\nencoding: raw\n\n01' >"$tmp/small.nrrd"
printf 'NRRD0004\ndimension: 3\nsizes: 8192 8192 8192\ntype: uchar\nencoding: raw\n\n0' >"$tmp/cube.nrrd"
vtk='# vtk DataFile Version 3.0\nt\nBINARY\nDATASET STRUCTURED_POINTS\n'
printf "${vtk}DIMENSIONS 2 2 2\nPOINT_DATA 8\nSCALARS v unsigned_char\n\1\1\1\1\1\1\1\1" >"$tmp/nolut.vtk"
printf "${vtk}DIMENSIONS 2048 1024 1024\nPOINT_DATA 2147483648\nSCALARS v float\nLOOKUP_TABLE default\n" >"$tmp/two_g.vtk"
printf "${vtk}DIMENSIONS 2 2 2\nSPACING 0 0 0\nPOINT_DATA 8\nSCALARS v unsigned_char\nLOOKUP_TABLE default\n\0\0\0\0\0\0\0\11" >"$tmp/flat.vtk"
printf "${vtk}DIMENSIONS 2 2 2\nSPACING nan nan nan\nPOINT_DATA 8\nSCALARS v unsigned_char\nLOOKUP_TABLE default\n\0\0\0\0\0\0\0\11" >"$tmp/nan.vtk"
xyz='property float x\nproperty float y\nproperty float z\n'
printf "ply\nformat ascii 1.0\nelement vertex 1\n${xyz}element junk -1\nend_header\n0 0 0\n" >"$tmp/noprops.ply"
printf "ply\nformat ascii 1.0\nelement vertex 1500000000\n${xyz}end_header\n0 0 0\n" >"$tmp/huge.ply"
printf "ply\nformat binary_little_endian 1.0\nelement vertex 18446744073709551615\n${xyz}end_header\n" >"$tmp/max.ply"
printf 'name = "fountain"\n[[stage]]\ntype = "ballistic"\ncount = 10000000\nparticle_lifetime = 100.0\nfixed_dt = 0.0001\n' >"$tmp/fountain.toml"

expect 2 "n.nhdr: field 'data file': unsupported conversion '%n'" mesh "$tmp/n.nhdr" --iso 0 -o "$tmp/x.ply"
expect 2 "s.nhdr: field 'data file': unsupported conversion '%s'" mesh "$tmp/s.nhdr" --iso 0 -o "$tmp/x.ply"
expect 2 "range.nhdr: field 'data file': declares 2000000000 slice files" mesh "$tmp/range.nhdr" --iso 0 -o "$tmp/x.ply"
expect 2 "/dev/zero: data file is not a regular file" mesh "$tmp/zero.nhdr" --iso 0 -o "$tmp/x.ply"
expect 2 "small.nrrd: truncated" mesh "$tmp/small.nrrd" --iso 0 -o "$tmp/x.ply"
expect 2 "cube.nrrd: field 'sizes': declares 8192 x 8192 x 8192" mesh "$tmp/cube.nrrd" --iso 0 -o "$tmp/x.ply"
expect 2 "nolut.vtk: missing LOOKUP_TABLE" mesh "$tmp/nolut.vtk" --iso 0 -o "$tmp/x.ply"
expect 2 "two_g.vtk: field 'DIMENSIONS'" mesh "$tmp/two_g.vtk" --iso 0 -o "$tmp/x.ply"
expect 2 "flat.vtk: field 'SPACING'" levelset "$tmp/flat.vtk" --iso 4 --steps 1 -o "$tmp/x.vdb"
expect 2 "nan.vtk: field 'SPACING'" levelset "$tmp/nan.vtk" --iso 4 --steps 1 -o "$tmp/x.vdb"
expect 2 "File name too long" mesh "$tmp/$(printf 'v%.0s' {1..5000}).nrrd" --iso 0 -o "$tmp/x.ply"
expect 2 "File name too long" reconstruct "$tmp/$(printf 'p%.0s' {1..5000}).ply" -o "$tmp/x.ply"
expect 2 "noprops.ply: field 'element junk'" reconstruct "$tmp/noprops.ply" -o "$tmp/x.ply"
expect 2 "huge.ply: field 'element vertex': declares 1500000000 vertices" reconstruct "$tmp/huge.ply" -o "$tmp/x.ply"
expect 2 "max.ply: field 'element vertex'" levelset "$tmp/max.ply" --steps 1 -o "$tmp/x.vdb"
expect 2 "field 'stage[0].count'" capture "$tmp/fountain.toml" --size 64x64 --frames 1
# A .vdb cut short, and one with a few bytes changed: clean errors naming the file.
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' >"$tmp/tet.obj"
"$meniscus" levelset "$tmp/tet.obj" --resolution 24 --steps 0 -o "$tmp/tet.vdb" >/dev/null
head -c $(($(stat -c %s "$tmp/tet.vdb") / 2)) "$tmp/tet.vdb" >"$tmp/cut.vdb"
expect 2 "cut.vdb: " mesh "$tmp/cut.vdb" --iso 0 -o "$tmp/x.ply"
expect 2 "cut.vdb: " levelset "$tmp/cut.vdb" --steps 1 -o "$tmp/x.vdb"
exit $failures
