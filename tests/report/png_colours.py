#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""png_colours.py FILE: print "WIDTH HEIGHT COLOURS NONWHITE" of an 8-bit RGB or
RGBA PNG (no interlace): its size, the number of distinct colours and the
fraction of pixels that are not white. Standard library only (zlib); the
filters are undone as the PNG specification defines them (ISO/IEC 15948,
section 9). Exit 1 on a file that is not such a PNG."""
import struct
import sys
import zlib


def chunks(data):
    pos = 8
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + n]
        pos += 12 + n


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(raw, width, height, bpp):
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    pos = 0
    for _ in range(height):
        ftype = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif ftype == 2:
            line = bytearray((x + y) & 0xFF for x, y in zip(line, prev))
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                up_left = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + paeth(left, prev[i], up_left)) & 0xFF
        elif ftype != 0:
            raise ValueError("bad filter type %d" % ftype)
        rows.append(line)
        prev = line
    return rows


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        print("not a PNG", file=sys.stderr)
        return 1
    idat = b""
    for kind, body in chunks(data):
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if depth != 8 or ctype not in (2, 6) or interlace:
        print("unsupported PNG (depth %d, colour type %d)" % (depth, ctype), file=sys.stderr)
        return 1
    bpp = 3 if ctype == 2 else 4
    rows = unfilter(zlib.decompress(idat), width, height, bpp)
    colours = set()
    nonwhite = 0
    for line in rows:
        for i in range(0, len(line), bpp):
            px = bytes(line[i:i + 3])
            colours.add(px)
            nonwhite += px != b"\xff\xff\xff"
    print(width, height, len(colours), "%.4f" % (nonwhite / float(width * height)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
