#!/usr/bin/env python3
"""Compares two PNG files pixel by pixel within a tolerance (stdlib only: zlib, struct).

usage: compare_png.py ACTUAL EXPECTED [MAX_DIFFERING_FRACTION] [PIXEL_THRESHOLD]

Decodes 8-bit greyscale, grey+alpha, RGB and RGBA non-interlaced PNGs (what rsvg-convert writes),
composites each over white, and counts the pixels whose largest channel difference exceeds
PIXEL_THRESHOLD (default 48 of 255). Exit 0 when the sizes match and at most MAX_DIFFERING_FRACTION
(default 0.02) of the pixels differ; else 1, with the figures on stdout.
"""
import struct
import sys
import zlib

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    position, idat, header = 8, b"", None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in CHANNELS or interlace != 0:
        raise ValueError(f"{path}: depth {depth}, colour type {colour}, interlace {interlace} not decoded here")
    channels = CHANNELS[colour]
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, offset = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line)
        previous = line
    pixels = []
    for line in rows:
        for x in range(width):
            value = line[x * channels:(x + 1) * channels]
            if channels in (1, 2):
                rgb, alpha = [value[0]] * 3, (value[1] if channels == 2 else 255)
            else:
                rgb, alpha = list(value[:3]), (value[3] if channels == 4 else 255)
            pixels.append(tuple((c * alpha + 255 * (255 - alpha)) // 255 for c in rgb))
    return width, height, pixels


def main():
    actual, expected = sys.argv[1], sys.argv[2]
    fraction = float(sys.argv[3]) if len(sys.argv) > 3 else 0.02
    threshold = int(sys.argv[4]) if len(sys.argv) > 4 else 48
    w1, h1, p1 = decode(actual)
    w2, h2, p2 = decode(expected)
    if (w1, h1) != (w2, h2):
        print(f"size {w1}x{h1}, expected {w2}x{h2}")
        return 1
    differing = sum(1 for a, b in zip(p1, p2) if max(abs(x - y) for x, y in zip(a, b)) > threshold)
    share = differing / max(1, len(p1))
    print(f"{w1}x{h1}: {differing} of {len(p1)} pixels differ by more than {threshold} ({share:.4%}, allowed {fraction:.2%})")
    return 0 if share <= fraction else 1


if __name__ == "__main__":
    sys.exit(main())
