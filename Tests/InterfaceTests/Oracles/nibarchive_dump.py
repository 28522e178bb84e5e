#!/usr/bin/env python3
"""Oracle for NIBArchiveTests: the tables of each NIBArchive named on standard input, as read by
the Python `nibarchive` package (an implementation nobody here wrote), one canonical line per
entry, files separated by `== path` lines. Type codes are printed as numbers (the package's
names for 4 and 5 are swapped against Apple's nibs; the numbers are what matter)."""
import struct
import sys

import nibarchive


def payload(value):
    kind = int(value.type)
    data = value.data
    if kind in (0, 1, 2, 3):
        return "%d %d" % (kind, data)
    if kind == 6:
        return "6 " + struct.pack("<f", data).hex()
    if kind == 7:
        return "7 " + struct.pack("<d", data).hex()
    if kind == 8:
        return "8 " + bytes(data).hex()
    if kind == -1:
        # The package parses a data value that is itself a NIBArchive (a nested nib, such as a
        # table's cell view prototype) into an archive: compare its table sizes.
        return "8 nib %d %d %d %d" % (len(data.objects), len(data.keys), len(data.values), len(data.class_names))
    if kind == 10:
        return "10 %d" % data
    return "%d" % kind


def main():
    parser = nibarchive.NIBArchiveParser(verify=False)
    for path in (line.strip() for line in sys.stdin if line.strip()):
        print("== " + path)
        with open(path, "rb") as handle:
            archive = parser.parse(handle)
        for obj in archive.objects:
            print("o %d %d %d" % (obj.class_name_index, obj.values_index, obj.value_count))
        for key in archive.keys:
            print("k " + key.name.encode("utf-8", "surrogateescape").hex())
        for value in archive.values:
            print("v %d %s" % (value.key_index, payload(value)))
        for name in archive.class_names:
            print("c %s %s" % (name.name.encode("utf-8", "surrogateescape").hex(), ",".join(str(x) for x in name.extras)))


if __name__ == "__main__":
    main()
