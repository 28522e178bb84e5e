#!/usr/bin/env python3
"""Oracle for ConnectorCoverageTests: the connectors of each NIBArchive named on standard input,
as the Python `nibarchive` package (an implementation nobody here wrote) reads it — the members of
the root's NSIBObjectData NSConnections and NSAccessibilityConnectors (AppKit) or of
UINibConnectionsKey (UIKit) — one `ClassName count` line per connector class, files separated by
`== path` lines."""
import collections
import sys

import nibarchive


def values(archive, index):
    obj = archive.objects[index]
    return [(archive.keys[v.key_index].name, v) for v in archive.values[obj.values_index:obj.values_index + obj.value_count]]


def reference(archive, index, key):
    for name, value in values(archive, index):
        if name == key and int(value.type) == 10:
            return value.data
    return None


def members(archive, index):
    if index is None:
        return []
    entries = values(archive, index)
    if not entries or entries[0][0] != "NSInlinedValue":
        return []
    return [value.data for _, value in entries[1:] if int(value.type) == 10]


def main():
    parser = nibarchive.NIBArchiveParser(verify=False)
    for path in (line.strip() for line in sys.stdin if line.strip()):
        print("== " + path)
        with open(path, "rb") as handle:
            archive = parser.parse(handle)
        data = reference(archive, 0, "IB.objectdata")
        if data is not None:
            connectors = members(archive, reference(archive, data, "NSConnections"))
            connectors += members(archive, reference(archive, data, "NSAccessibilityConnectors"))
        else:
            connectors = members(archive, reference(archive, 0, "UINibConnectionsKey"))
        counts = collections.Counter(archive.class_names[archive.objects[c].class_name_index].name for c in connectors)
        for name in sorted(counts):
            print("%s %d" % (name, counts[name]))


if __name__ == "__main__":
    main()
