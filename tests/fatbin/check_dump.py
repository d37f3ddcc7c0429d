#!/usr/bin/env python3
"""Checks `barracuda dump` against an independent reading of each binary's fat-binary sections.

Usage: check_dump.py BARRACUDA [--corrupt] BINARY...

The sections are copied out with objcopy and their containers walked here in Python (layout in
src/fatbin/format.h); every container and entry `barracuda dump --json` reports must match, and
`--extract-ptx` must write one file per PTX entry. With --corrupt, a copy of each binary whose last
container has a broken magic must make the dump fail, naming that container's offset.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

SECTIONS = (".nv_fatbin", "__nv_relfatbin")
COMPRESSION = {0: "none", 0x1000: "zlib", 0x2000: "lz4-block", 0x4000: "lz4-frame", 0x8000: "zstd"}
KINDS = {1: "ptx", 2: "cubin", 8: "lto-ir"}


def section_bytes(binary, section, workdir):
    out = os.path.join(workdir, section.strip("."))
    subprocess.run(["objcopy", "-O", "binary", "--only-section=" + section, binary, out], check=True)
    with open(out, "rb") as f:
        return f.read()


def walk_containers(data):
    """Yields (offset, [(kind, sm, compression), ...]) for each container of a section."""
    offset = 0
    while offset < len(data):
        if data[offset] == 0:
            offset += 1
            continue
        magic, _, header_size, entries_size = struct.unpack_from("<IHHQ", data, offset)
        assert magic == 0xBA55ED50, f"bad magic {magic:#x} at {offset:#x}"
        entries = []
        position = offset + header_size
        end = position + entries_size
        while position < end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", data, position)
            (sm,) = struct.unpack_from("<I", data, position + 0x1C)
            (flags,) = struct.unpack_from("<Q", data, position + 0x28)
            entries.append((KINDS[kind], sm, COMPRESSION[flags & 0xF000]))
            position += entry_header + payload
        yield offset, entries
        offset = end


def check(barracuda, binary):
    with tempfile.TemporaryDirectory() as workdir:
        expected = {}
        for section in SECTIONS:
            data = section_bytes(binary, section, workdir)
            if data:
                expected[section] = list(walk_containers(data))
        start = time.monotonic()
        dump = subprocess.run([barracuda, "dump", "--json", binary], check=True, capture_output=True, text=True)
        seconds = time.monotonic() - start
        reported = {s["name"]: [(c["offset"], [(e["kind"], e["sm"], e["compression"]) for e in c["entries"]])
                                for c in s["containers"]] for s in json.loads(dump.stdout)["sections"]}
        assert reported == expected, f"{binary}: dump disagrees with the independent walk"
        extract_dir = os.path.join(workdir, "ptx")
        subprocess.run([barracuda, "dump", "--extract-ptx", extract_dir, binary], check=True, capture_output=True)
        ptx_entries = sum(kind == "ptx" for containers in expected.values() for _, entries in containers
                          for kind, _, _ in entries)
        files = os.listdir(extract_dir) if os.path.isdir(extract_dir) else []
        assert len(files) == ptx_entries, f"{binary}: {len(files)} PTX files for {ptx_entries} PTX entries"
        for name in files:
            with open(os.path.join(extract_dir, name), "rb") as f:
                text = f.read()
            assert b"\0" not in text and b"\n.version " in b"\n" + text, f"{name} is not PTX text"
    containers = sum(len(c) for c in expected.values())
    entries = sum(len(e) for c in expected.values() for _, e in c)
    print(f"{binary}: {containers} containers, {entries} entries ({ptx_entries} PTX) agree; dump took {seconds:.2f} s")


def check_corrupt(barracuda, binary):
    dump = json.loads(subprocess.run([barracuda, "dump", "--json", binary], check=True, capture_output=True,
                                     text=True).stdout)
    section = dump["sections"][-1]
    container = section["containers"][-1]["offset"]
    with tempfile.TemporaryDirectory() as workdir:
        broken = os.path.join(workdir, os.path.basename(binary))
        shutil.copyfile(binary, broken)
        with open(broken, "r+b") as f:
            f.seek(section["file_offset"] + container)
            f.write(b"JUNK")
        result = subprocess.run([barracuda, "dump", broken], capture_output=True, text=True)
    expected = f"malformed fat binary: offset {container:#x}: bad container magic 0x4b4e554a"
    assert result.returncode == 1 and expected in result.stderr, f"{binary}: {result.returncode} {result.stderr}"
    print(f"{binary}: a broken magic at {section['name']}+{container:#x} is reported")


def main():
    barracuda, binaries = sys.argv[1], sys.argv[2:]
    corrupt = "--corrupt" in binaries
    for binary in (b for b in binaries if b != "--corrupt"):
        check(barracuda, binary)
        if corrupt:
            check_corrupt(barracuda, binary)


if __name__ == "__main__":
    main()
