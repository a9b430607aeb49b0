#!/usr/bin/python3
"""Writes the fuzz targets' seed corpora (tests/fuzz/corpus/<target>/seed-*) from the project's
own sample data: a few samples cut out of headsq and ironProt, a few vertices and faces of lucy
and bunny_points, the scenes as they are. Seeds are small on purpose (libFuzzer mutates within
the largest seed's size, and a small input runs fast). Rerun after a format change; the vdb
seed needs a built `meniscus` (pass its path), the others only the sample files.

    tests/fuzz/make_seeds.py [--meniscus build/meniscus]
"""
import argparse
import pathlib
import struct
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "scenes/data/vtk-data"
CORPUS = ROOT / "tests/fuzz/corpus"


def put(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"seed-{name}").write_bytes(data if isinstance(data, bytes) else data.encode())


def headsq_block(nx=5, ny=4, nz=3):
    """nx x ny x nz little-endian int16 samples from the middle of headsq's slices."""
    out = bytearray()
    for z in range(nz):
        raw = (DATA / f"headsq/quarter.{40 + z}").read_bytes()  # 64 x 64 int16 per slice
        for y in range(ny):
            row = 30 + y
            out += raw[(row * 64 + 30) * 2:(row * 64 + 30 + nx) * 2]
    return bytes(out)


def nrrd_seeds():
    block = headsq_block()
    samples = struct.unpack(f"<{len(block) // 2}h", block)
    header = "NRRD0004\ndimension: 3\nsizes: 5 4 3\nspacings: 3.2 3.2 1.5\ntype: {type}\nendian: {endian}\nencoding: raw\n"
    put("nrrd", "short-little", (header.format(type="short", endian="little") + "\n").encode() + block)
    put("nrrd", "short-big",
        (header.format(type="short", endian="big") + "\n").encode() + struct.pack(f">{len(samples)}h", *samples))
    put("nrrd", "float",
        (header.format(type="float", endian="little") + "\n").encode() + struct.pack(f"<{len(samples)}f", *samples))
    put("nrrd", "uchar",
        (header.format(type="uchar", endian="little") + "\n").encode() + bytes(s & 0xFF for s in samples))
    # Detached: header, "--data--", data (see fuzz_nhdr.cpp).
    detached = "NRRD0004\ndimension: 3\nsizes: 5 4 3\nspacings: 3.2 3.2 1.5\nendian: little\ntype: short\nencoding: raw\n"
    put("nhdr", "data-file", (detached + "data file: data.raw\n\n--data--\n").encode() + block)
    put("nhdr", "slice-pattern", (detached + "data file: slice%d.raw 1 3 1\n\n--data--\n").encode() + block)


def vtk_seeds():
    text = (DATA / "ironProt.vtk").read_bytes()
    data = text[text.index(b"LOOKUP_TABLE default\n") + len(b"LOOKUP_TABLE default\n"):]
    block = bytes(data[((z + 30) * 68 + y + 30) * 68 + 30 + x] for z in range(3) for y in range(4) for x in range(4))
    header = ("# vtk DataFile Version 1.0\nIron protein (4 x 4 x 3 of ironProt.vtk)\n{fmt}\n\nDATASET STRUCTURED_POINTS\n"
              "DIMENSIONS 4 4 3\nASPECT_RATIO 1.0 1.0 1.0\nORIGIN 0.0 0.0 0.0\n\nPOINT_DATA 48\n"
              "SCALARS scalars {type}\nLOOKUP_TABLE default\n")
    put("vtk", "binary-uchar", header.format(fmt="BINARY", type="unsigned_char").encode() + block)
    put("vtk", "binary-short",
        header.format(fmt="BINARY", type="short").encode() + struct.pack(f">{len(block)}h", *block))
    put("vtk", "ascii-float", header.format(fmt="ASCII", type="float") + " ".join(f"{v}.5" for v in block) + "\n")


def nifti_seeds():
    """The headsq block as NIfTI-1 (.nii): int16 little-endian, and float32 big-endian."""
    block = headsq_block()
    samples = struct.unpack(f"<{len(block) // 2}h", block)

    def nii(datatype, bitpix, data, endian="<"):
        header = bytearray(352)
        struct.pack_into(endian + "i", header, 0, 348)
        struct.pack_into(endian + "8h", header, 40, 3, 5, 4, 3, 1, 1, 1, 1)
        struct.pack_into(endian + "hh", header, 70, datatype, bitpix)
        struct.pack_into(endian + "8f", header, 76, 1.0, 0.9, 0.9, 2.5, 1.0, 0.0, 0.0, 0.0)
        struct.pack_into(endian + "f", header, 108, 352.0)
        header[344:348] = b"n+1\0"
        return bytes(header) + data

    put("nifti", "int16-le", nii(4, 16, block))
    put("nifti", "float32-be", nii(16, 32, struct.pack(f">{len(samples)}f", *samples), endian=">"))


def lucy_patch(faces=6):
    """The first faces of lucy.ply with their vertices, renumbered."""
    raw = (DATA / "lucy.ply").read_bytes()
    body = raw[raw.index(b"end_header\n") + len(b"end_header\n"):]
    vertex_count = 49987
    verts = [struct.unpack_from("<3f", body, 12 * i) for i in range(vertex_count)]
    pos, tris = 12 * vertex_count, []
    for _ in range(faces):
        n = body[pos]
        tris.append(struct.unpack_from(f"<{n}i", body, pos + 1))
        pos += 1 + 4 * n
    used = sorted({i for t in tris for i in t})
    index = {old: new for new, old in enumerate(used)}
    return [verts[i] for i in used], [tuple(index[i] for i in t) for t in tris]


def bunny_points(count=12):
    raw = (DATA / "bunny_points.ply").read_bytes()
    body = raw[raw.index(b"end_header\n") + len(b"end_header\n"):]
    return [struct.unpack_from("<3f", body, 12 * i) for i in range(count)]


def ply_header(fmt, vertices, faces, face_list="uchar int"):
    h = f"ply\nformat {fmt} 1.0\ncomment fuzz seed\nelement vertex {vertices}\nproperty float x\nproperty float y\nproperty float z\n"
    if faces is not None:
        h += f"element face {faces}\nproperty list {face_list} vertex_indices\n"
    return h + "end_header\n"


def ply_seeds():
    verts, tris = lucy_patch()
    points = bunny_points()
    ascii_mesh = ply_header("ascii", len(verts), len(tris))
    ascii_mesh += "".join(f"{x} {y} {z}\n" for x, y, z in verts) + "".join(f"3 {a} {b} {c}\n" for a, b, c in tris)
    put("ply_ascii", "lucy-patch", ascii_mesh)
    put("ply_ascii", "bunny-points",
        ply_header("ascii", len(points), None) + "".join(f"{x} {y} {z}\n" for x, y, z in points))
    for order, fmt in (("<", "binary_little_endian"), (">", "binary_big_endian")):
        mesh = ply_header(fmt, len(verts), len(tris)).encode()
        mesh += b"".join(struct.pack(f"{order}3f", *v) for v in verts)
        mesh += b"".join(struct.pack(f"{order}B3i", 3, *t) for t in tris)
        put("ply_binary", f"lucy-patch-{fmt}", mesh)
    put("ply_binary", "bunny-points",
        ply_header("binary_little_endian", len(points), None).encode() + b"".join(struct.pack("<3f", *p) for p in points))
    return verts, tris


def obj_seeds(verts, tris):
    put("obj", "lucy-patch",
        "# lucy patch\n" + "".join(f"v {x} {y} {z}\n" for x, y, z in verts) +
        "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in tris))
    put("obj", "lucy-patch-slashes",
        "o patch\n" + "".join(f"v {x} {y} {z}\n" for x, y, z in verts) + "vn 0 0 1\n" +
        "".join(f"f {a + 1}//1 {b + 1}//1 {c + 1}//1\n" for a, b, c in tris))


def scene_seeds():
    for scene in sorted((ROOT / "scenes").glob("*.toml")):
        put("scene", scene.stem, scene.read_bytes())


def vdb_seed(meniscus):
    """A tetrahedron turned into a coarse level set by `meniscus levelset`."""
    with tempfile.TemporaryDirectory() as tmp:
        mesh = pathlib.Path(tmp) / "tetra.obj"
        mesh.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
        out = pathlib.Path(tmp) / "tetra.vdb"
        subprocess.run([meniscus, "levelset", str(mesh), "-o", str(out), "--resolution", "16", "--steps", "0"],
                       check=True)
        put("vdb", "tetra", out.read_bytes())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--meniscus", help="a built meniscus, to write the .vdb seed")
    args = parser.parse_args()
    for seed in CORPUS.glob("*/seed-*"):  # regression inputs (crash-*, hang-*, ...) stay
        if seed.parent.name != "vdb" or args.meniscus:
            seed.unlink()
    nrrd_seeds()
    nifti_seeds()
    vtk_seeds()
    verts, tris = ply_seeds()
    obj_seeds(verts, tris)
    scene_seeds()
    if args.meniscus:
        vdb_seed(args.meniscus)


if __name__ == "__main__":
    main()
