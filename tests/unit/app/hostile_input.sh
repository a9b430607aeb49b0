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
# Issue 14's segmentation inputs: NIfTI volumes written here (python3 is in install-deps).
nii() {  # nii <file> <dim0> <dim4> <datatype> <bitpix> <sample byte string> [gzip]
  /usr/bin/python3 - "$@" <<'PY'
import gzip, struct, sys
path, rank, d4, dtype, bitpix, data = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), bytes.fromhex(sys.argv[6])
h = bytearray(352)
struct.pack_into('<i', h, 0, 348)
struct.pack_into('<8h', h, 40, rank, 2, 2, 2, d4, 1, 1, 1)
struct.pack_into('<hh', h, 70, dtype, bitpix)
struct.pack_into('<8f', h, 76, 1, 1, 1, 1, 1, 0, 0, 0)
struct.pack_into('<f', h, 108, 352.0)
h[344:348] = b'n+1\0'
blob = bytes(h) + data
if len(sys.argv) > 7:
    blob = gzip.compress(blob)[:-int(sys.argv[7])] if int(sys.argv[7]) else gzip.compress(blob)
open(path, 'wb').write(blob)
PY
}
ones=$(printf '0000803f%.0s' {1..8})  # eight float 1.0s
nii "$tmp/ok.nii" 3 1 16 32 "$ones"
nii "$tmp/nan.nii" 3 1 16 32 "0000c07f${ones:8}"
nii "$tmp/four.nii" 4 3 16 32 "$ones$ones$ones"
nii "$tmp/rgb.nii" 3 1 128 24 "$(printf '00%.0s' {1..24})"
nii "$tmp/cut.nii.gz" 3 1 16 32 "$ones" 10
seg() { expect 2 "$1" segment "${@:2}" -o "$tmp/x.nrrd"; }
seg "--seed 5,0,0 lies outside the volume (2 x 2 x 2 samples)" "$tmp/ok.nii" --seed 5,0,0 --lower 0 --upper 2
seg "--seed-mm 0,0,-3 lies outside the volume" "$tmp/ok.nii" --seed-mm 0,0,-3 --lower 0 --upper 2
seg "--lower (2) must be below --upper (2)" "$tmp/ok.nii" --seed 0,0,0 --lower 2 --upper 2
seg "nan.nii: sample 0 is not a finite number" "$tmp/nan.nii" --seed 0,0,0 --lower 0 --upper 2
seg "four.nii: field 'dim[4]'" "$tmp/four.nii" --seed 0,0,0 --lower 0 --upper 2
seg "rgb.nii: field 'datatype': 128 is not supported" "$tmp/rgb.nii" --seed 0,0,0 --lower 0 --upper 2
seg "cut.nii.gz: " "$tmp/cut.nii.gz" --seed 0,0,0 --lower 0 --upper 2
seg "--seed: expected x,y,z or x,y,z,r" "$tmp/ok.nii" --seed 1,2 --lower 0 --upper 2
seg "--curvature: expected a number in" "$tmp/ok.nii" --seed 0,0,0 --lower 0 --upper 2 --curvature 1
# A surface's wavelet preview: more levels than the volume's smallest axis allows, and a wavelet
# that does not exist. A NIfTI of 2 x 2 x 2 samples allows one level.
preview() {  # preview <file> <wavelet> <levels>
  printf 'name = "preview"\n[pass.surface]\nvolume = "%s"\n[pass.surface.preview]\nwavelet = "%s"\nlevels = %s\n[[pass.surface.layer]]\nname = "a"\niso = 0.5\n' \
    "$tmp/ok.nii" "$2" "$3" >"$1"
}
preview "$tmp/deep.toml" 9/7 2
expect 2 "field 'pass.surface.preview.levels': $tmp/ok.nii allows at most 1 levels" capture "$tmp/deep.toml" --size 64x64 --frames 1
preview "$tmp/nowavelet.toml" 9-7 1
expect 2 "field 'pass.surface.preview.wavelet'" capture "$tmp/nowavelet.toml" --size 64x64 --frames 1
# The refraction stages: a setting out of range names its field; a mesh that is not there, or
# holds no triangles (a point cloud), names the mesh file.
printf 'name = "pool"\n[[stage]]\ntype = "caustics_pool"\ngrid = 1\n' >"$tmp/pool.toml"
expect 2 "field 'stage[0].grid'" capture "$tmp/pool.toml" --size 64x64 --frames 1
printf 'name = "pool"\n[[stage]]\ntype = "caustics_pool"\neye = [0, 1, 0]\ntarget = [0, 1, 0]\n' >"$tmp/eye.toml"
expect 2 "field 'stage[0].target': must differ from eye" capture "$tmp/eye.toml" --size 64x64 --frames 1
# A tile storage that is not one of the two names the field and what it takes.
printf 'name = "half"\n[[stage]]\ntype = "levelset"\nenright = 32\nprecision = "half"\n' >"$tmp/half.toml"
expect 2 "field 'stage[0].precision'" capture "$tmp/half.toml" --size 64x64 --frames 1
printf 'name = "glass"\n[[stage]]\ntype = "refracting_mesh"\nmesh = "%s"\n' "$tmp/absent.ply" >"$tmp/glass.toml"
expect 2 "absent.ply" capture "$tmp/glass.toml" --size 64x64 --frames 1
printf "ply\nformat ascii 1.0\nelement vertex 1\n${xyz}end_header\n0 0 0\n" >"$tmp/point.ply"
printf 'name = "glass"\n[[stage]]\ntype = "refracting_mesh"\nmesh = "%s"\n' "$tmp/point.ply" >"$tmp/point.toml"
expect 2 "point.ply: no triangles to trace" capture "$tmp/point.toml" --size 64x64 --frames 1
printf 'name = "x"\n[[stage]]\ntype = "refracting_surface"\n' >"$tmp/surface.toml"
expect 2 "field 'stage[0].level_set': names the level-set stage" capture "$tmp/surface.toml" --size 64x64 --frames 1
# A glass tank: a wall out of range names it; around a surface, its inside is required and a box.
printf 'name = "pool"\n[[stage]]\ntype = "caustics_pool"\nglass_wall = -1\n' >"$tmp/tank.toml"
expect 2 "field 'stage[0].glass_wall'" capture "$tmp/tank.toml" --size 64x64 --frames 1
traced_tank() {  # traced_tank <file> <tank lines>
  printf 'name = "x"\n[[stage]]\ntype = "sph"\nname = "w"\ndomain_min = [0.0, 0.0, 0.0]\ndomain_max = [0.3, 0.3, 0.1]\n' >"$1"
  printf '[[stage.fill]]\nmin = [0.0, 0.0, 0.0]\nmax = [0.1, 0.1, 0.1]\n' >>"$1"
  printf '[[stage]]\ntype = "levelset"\nname = "s"\nparticles = "w"\n' >>"$1"
  printf '[[stage]]\ntype = "refracting_surface"\nlevel_set = "s"\nglass_wall = 0.01\n%s\n' "$2" >>"$1"
}
traced_tank "$tmp/no_inside.toml" 'tank_min = [0.0, 0.0, 0.0]'
expect 2 "field 'stage[2].tank_max': is required with glass_wall" capture "$tmp/no_inside.toml" --size 64x64 --frames 1
traced_tank "$tmp/flat_inside.toml" $'tank_min = [0.0, 0.0, 0.0]\ntank_max = [0.3, 0.0, 0.1]'
expect 2 "field 'stage[2].tank_max': must exceed tank_min" capture "$tmp/flat_inside.toml" --size 64x64 --frames 1
exit $failures
