#!/usr/bin/env python3
"""Measures ibtool's iOS compiler against Apple: compiles every source of an ios_pairs corpus
folder (MANIFEST.tsv: one row a pair of an Apple-compiled nib / nib folder / .storyboardc and the
xib or storyboard it came from) and compares it canonically with each of Apple's outputs
(`ibtool --compare`, which pairs UIKit objects from the root and compares the orders Apple does
not keep stable as multisets). A nib folder counts as equal when our nib equals any of its files
(`runtime.nib`, `objects-8.0+.nib`, ...).

Prints tables: per pair, per distinct source (equal when our output equals Apple's output of at
least one of its pairs), per element family (the `elements` column) and per Xcode (`DTXcode`), and
the most frequent first differences, each also per kind (xib or storyboard: a `.storyboardc` is
equal when every nib and its Info.plist are). `--tsv FILE` writes one row per pair.

    swift build -c release --product ibtool
    Tools/ios-pairs.py --ibtool .build/release/ibtool /work/shared/corpus/ios_pairs
    Tools/ios-pairs.py --defaults Tests/Fixtures/corpus/ios_pairs   # a plain `ibtool --compile`
"""
import argparse
import collections
import concurrent.futures
import csv
import os
import re
import subprocess
import sys


def outputs(compiled):
    """Apple's outputs of one pair: the nib file, each nib of a nib folder, or the .storyboardc."""
    if compiled.endswith(".storyboardc") or os.path.isfile(compiled):
        return [compiled]
    return sorted(os.path.join(compiled, name) for name in os.listdir(compiled) if name.endswith(".nib"))


def compare(ibtool, source, apple, extra):
    """(status, detail): 'equal', 'differ' with the first difference, or 'refused' with the error."""
    command = [ibtool, "--output-format", "human-readable-text", *extra, "--compare", apple, source]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "refused", "timed out"
    text = run.stdout + run.stderr
    if "hold the same object graph" in text:
        return "equal", ""
    match = re.search(r" differ: (.*)", text)
    if match:
        return "differ", match.group(1).strip()
    errors = text.split("/* com.apple.ibtool.errors */", 1)
    detail = errors[1].strip().splitlines()[0] if len(errors) > 1 and errors[1].strip() else text.strip()[:300]
    return "refused", detail


def measure(ibtool, folder, row, extra, per_pair_xcode=False, manifest_target=False):
    if per_pair_xcode and row["DTXcode"]:
        extra = extra + ["--xcode-version", row["DTXcode"]]
    if (per_pair_xcode or manifest_target) and row["MinimumOSVersion"]:
        extra = extra + ["--minimum-deployment-target", row["MinimumOSVersion"]]
    # The target's module: a framework's name (Swift classes with customModuleProvider="target").
    framework = re.search(r"([^/]+)\.framework/", row["compiled_path"])
    if framework:
        extra = extra + ["--module", framework.group(1)]
    pair_folder = os.path.join(folder, row["folder"])
    source = os.path.join(pair_folder, row["source_file"])
    results = []
    for apple in outputs(os.path.join(pair_folder, row["compiled_file"])):
        status, detail = compare(ibtool, source, apple, extra)
        results.append((os.path.basename(apple), status, detail))
        if status == "refused":
            break
    equal = [name for name, status, _ in results if status == "equal"]
    if equal:
        return row, "equal", ",".join(equal)
    refused = [detail for _, status, detail in results if status == "refused"]
    if refused:
        return row, "refused", refused[0]
    # The difference from the newest variant (the last file of a folder by name sorts
    # objects-N+.nib after objects.nib; runtime.nib is the oldest), as the default compile targets it.
    variants = [r for r in results if r[0] != "runtime.nib"] or results
    return row, "differ", variants[-1][0] + ": " + variants[-1][2]


def family_counts(rows_results, key):
    table = collections.defaultdict(lambda: [0, 0, 0])
    for row, status, _ in rows_results:
        for name in key(row):
            table[name][0] += 1
            table[name][1] += status == "equal"
            table[name][2] += status == "refused"
    return table


def print_table(title, table, order=None):
    print(f"\n{title}")
    print(f"  {'':28} {'pairs':>6} {'equal':>6} {'refused':>8}")
    for name in order or sorted(table):
        total, equal, refused = table[name]
        print(f"  {name or '(none)':28} {total:6} {equal:6} {refused:8}")


def blocker(detail):
    """The key a first difference is about (the last step of its path)."""
    text = detail.split(": ", 1)[1] if ": " in detail else detail
    path = text.split(": ")[0]
    step = path.split(" → ")[-1]
    step = re.sub(r"\[\d+\]", "[n]", step)
    if "keys differ" in text or "only in the" in text:
        return re.sub(r".*\((\w+)\): ", r"\1: ", text)[:110]
    return re.sub(r" \(\w+\)$", "", step)[:110]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", help="the ios_pairs folder (with MANIFEST.tsv)")
    parser.add_argument("--ibtool", default=".build/debug/ibtool")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--tsv", help="write one row per pair here")
    parser.add_argument("--only", help="only pairs whose folder contains this text")
    parser.add_argument("--extra", default="", help="more ibtool options, space-separated")
    parser.add_argument("--per-pair-xcode", action="store_true",
                        help="compile each pair as the Xcode that made it, for its deployment target "
                             "(--xcode-version DTXcode --minimum-deployment-target MinimumOSVersion)")
    parser.add_argument("--manifest-target", action="store_true",
                        help="pass each pair's deployment target (--minimum-deployment-target MinimumOSVersion), "
                             "the Xcode left to ibtool's default")
    parser.add_argument("--defaults", action="store_true",
                        help="exactly what a plain `ibtool --compile OUT IN` gives: no --xcode-version, no "
                             "--minimum-deployment-target (only --module, as a framework target passes it); "
                             "refuses --extra, --per-pair-xcode and --manifest-target")
    arguments = parser.parse_args()
    with open(os.path.join(arguments.corpus, "MANIFEST.tsv"), newline="") as manifest:
        rows = [row for row in csv.DictReader(manifest, delimiter="\t") if not arguments.only or arguments.only in row["folder"]]
    extra = arguments.extra.split()
    if arguments.defaults and (extra or arguments.per_pair_xcode or arguments.manifest_target):
        parser.error("--defaults measures ibtool's own defaults: no --extra, --per-pair-xcode or --manifest-target")
    with concurrent.futures.ThreadPoolExecutor(arguments.jobs) as pool:
        results = list(pool.map(lambda row: measure(arguments.ibtool, arguments.corpus, row, extra, arguments.per_pair_xcode,
                                                         arguments.manifest_target), rows))

    statuses = collections.Counter(status for _, status, _ in results)
    print(f"pairs: {len(results)}  equal: {statuses['equal']}  differ: {statuses['differ']}  refused: {statuses['refused']}")
    sources = collections.defaultdict(list)
    for row, status, _ in results:
        sources[row["source_blob"]].append(status)
    equal_sources = sum("equal" in s for s in sources.values())
    refused_sources = sum("refused" in s for s in sources.values())
    print(f"distinct sources: {len(sources)}  equal to one of Apple's outputs: {equal_sources}"
          f" ({100.0 * equal_sources / max(len(sources), 1):.1f} %)  refused: {refused_sources}")

    print_table("per kind (xib, storyboard)", family_counts(results, lambda r: [r["kind"]]))
    for kind in sorted({row["kind"] for row, _, _ in results}):
        kind_sources = collections.defaultdict(list)
        for row, status, _ in results:
            if row["kind"] == kind:
                kind_sources[row["source_blob"]].append(status)
        equal_kind = sum("equal" in s for s in kind_sources.values())
        print(f"  {kind} distinct sources: {len(kind_sources)}  equal: {equal_kind}"
              f"  refused: {sum('refused' in s for s in kind_sources.values())}")
    print_table("per kind and Xcode (DTXcode)", family_counts(results, lambda r: [r["kind"] + " " + r["DTXcode"]]))
    print_table("per repository", family_counts(results, lambda r: [r["folder"].split("/")[0]]))
    print_table("per element family (pairs whose source has it)",
                family_counts(results, lambda r: [e.split(":")[0] for e in r["elements"].split(",") if e]))
    print_table("per Xcode (DTXcode)", family_counts(results, lambda r: [r["DTXcode"]]))
    # `ibtool --compare APPLE SOURCE` compiles SOURCE first: "the first" is ours, "the second" Apple's.
    print("\nmost frequent first differences (pairs; \"first\" is our compile, \"second\" Apple's)")
    for name, count in collections.Counter(blocker(d) for _, s, d in results if s == "differ").most_common(25):
        print(f"  {count:5}  {name}")
    refusals = collections.Counter(d[:140] for _, s, d in results if s == "refused")
    if refusals:
        print("\nrefusals")
        for name, count in refusals.most_common(20):
            print(f"  {count:5}  {name}")
    if arguments.tsv:
        with open(arguments.tsv, "w") as out:
            out.write("folder\tsource_blob\tDTXcode\tMinimumOSVersion\tstatus\tdetail\n")
            for row, status, detail in results:
                out.write(f"{row['folder']}\t{row['source_blob']}\t{row['DTXcode']}\t{row['MinimumOSVersion']}\t{status}\t{detail}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
