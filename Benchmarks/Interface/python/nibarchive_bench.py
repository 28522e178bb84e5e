"""The peer side of interface-bench: the Python `nibarchive` package (PyPI) reading NIBArchives.

    python3 nibarchive_bench.py ROUND_SECONDS LIST_FILE [SYNTHETIC_NIB]

LIST_FILE holds one nib path a line (the corpus NIBArchives, read in that order). For each cell —
"corpus-read" (every file of the list parsed once is one iteration) and "synthetic-read" — it runs
timed iterations until ROUND_SECONDS of CPU time have passed (at least one; the corpus cell after
one untimed iteration, the synthetic nib, several seconds an iteration, without), and prints
`cell bytes t1 t2 …` (seconds of process CPU time, `time.process_time()`). A `counts` line per cell
gives the objects, keys, values and class names read, which interface-bench checks against
Stasis's reading of the same bytes. The package's writer is not timed: its
`encode_header` packs the header's 32-bit fields with `bytes([...])` and fails on every nib.
"""

import io
import sys
import time

from nibarchive import NIBArchiveParser


def parse(data):
    return NIBArchiveParser().parse(io.BytesIO(data))


def run(cell, documents, round_seconds, warm_up):
    size = sum(len(data) for data in documents)
    if warm_up:
        for data in documents:
            parse(data)
    times = []
    spent = 0.0
    while not times or spent < round_seconds:
        # As Stasis's side: each archive is read, counted and freed inside the timed loop.
        totals = [0, 0, 0, 0]
        start = time.process_time()
        for data in documents:
            archive = parse(data)
            totals[0] += len(archive.objects)
            totals[1] += len(archive.keys)
            totals[2] += len(archive.values)
            totals[3] += len(archive.class_names)
            del archive
        elapsed = time.process_time() - start
        if not times:
            print("counts", cell, *totals, flush=True)
        times.append(elapsed)
        spent += elapsed
    print(cell, size, *("%.9f" % value for value in times), flush=True)


def main():
    round_seconds = float(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as listing:
        paths = [line.rstrip("\n") for line in listing if line.strip()]
    corpus = []
    for path in paths:
        with open(path, "rb") as handle:
            corpus.append(handle.read())
    run("corpus-read", corpus, round_seconds, True)
    if len(sys.argv) > 3:
        with open(sys.argv[3], "rb") as handle:
            run("synthetic-read", [handle.read()], round_seconds, False)


main()
