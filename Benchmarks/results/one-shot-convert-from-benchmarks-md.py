#!/usr/bin/env python3
"""One-shot conversion: the figures of the latest full runs recorded in Docs/benchmarks.md, as
Benchmarks/results/<harness>.json, for the harnesses that have not been re-run since they learnt to
write those files themselves.

usage: Benchmarks/results/one-shot-convert-from-benchmarks-md.py HARNESS… [--doc Docs/benchmarks.md] [--out Benchmarks/results]

Run once; the next run of a harness (its run.sh) replaces its file with what it measured. Each
file says where its figures came from in its "origin" field ("converted from the run of <date>,
commit <commit>, recorded in Docs/benchmarks.md"), and has the fields a harness writes: harness,
command, date, library, commit, machine, load, rows of {system, subject, operation, value, unit,
clock, ratio}, named as the harness names them. Where the document printed a peer's figure only as
a ratio to Stasis's, the peer's value is Stasis's value times (or, for a rate, divided by) that
ratio, and the row says so in "derived". Where a table gives two runs, the later (run 2) is used.
"""
import argparse
import json
import os
import re
import sys

UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
RATES = {"": 1.0, "k": 1e3, "M": 1e6}


def sections(markdown):
    """Each `## ` section's text, by title."""
    found, title, lines = {}, None, []
    for line in markdown.splitlines():
        if line.startswith("## "):
            if title:
                found[title] = "\n".join(lines)
            title, lines = line[3:].strip(), []
        elif title:
            lines.append(line)
    if title:
        found[title] = "\n".join(lines)
    return found


def tables(text):
    """The Markdown tables of a section, in order: (header, rows)."""
    found, lines, index = [], text.splitlines(), 0
    while index < len(lines):
        if lines[index].startswith("|") and index + 1 < len(lines) and re.match(r"^\|[\s:|-]+\|$", lines[index + 1].strip()):
            header, rows = cells(lines[index]), []
            index += 2
            while index < len(lines) and lines[index].startswith("|"):
                rows.append(cells(lines[index]))
                index += 1
            found.append((header, rows))
            continue
        index += 1
    return found


def cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def number(text):
    match = re.search(r"-?[\d,]*\.?\d+", text.replace("**", ""))
    return float(match.group(0).replace(",", "")) if match else None


def seconds(text):
    match = re.search(r"(-?[\d,]*\.?\d+)\s*(ns|µs|us|ms|s)\b", text)
    return float(match.group(1).replace(",", "")) * UNITS[match.group(2)] if match else None


def rate(text):
    match = re.search(r"([\d,]*\.?\d+)\s*([kM]?)/s", text)
    return float(match.group(1).replace(",", "")) * RATES[match.group(2)] if match else None


def second_run(text):
    """`496 / 342` → the second figure's text (run 2), else the text."""
    parts = text.split("/")
    return parts[1] if len(parts) == 2 and number(parts[1]) is not None else text


def run_caption(text):
    """(date, commit, machine, load) of the section's **Results.** caption."""
    match = re.search(r"\*\*Results\.\*\*(.*?)(?:\n\n|\n\|)", text, re.S)
    caption = " ".join(match.group(1).split()).strip("* ") if match else ""
    date = re.search(r"(\d{4}-\d\d-\d\d(?:T[\d:]+Z| [\d:]+ UTC)?)", caption)
    commit = re.search(r"commit\s+([0-9a-f]{7,40})", caption)
    machine = re.search(r"(AMD EPYC|Intel Xeon)[^,;]*", caption)
    load = re.search(r"(load average[^;*)]*|quiet machine|load \d[^;*)]*)", caption)
    if not date or not commit:
        sys.exit(f"one-shot-convert: no date or commit in the caption '{caption[:120]}'")
    return date.group(1), commit.group(1), machine.group(0) if machine else "", load.group(0).rstrip(". ") if load else "", caption


class Results:
    def __init__(self, harness):
        self.harness, self.rows = harness, []

    def add(self, system, subject, operation, value, unit, clock="cpu", derived=None):
        if value is None:
            sys.exit(f"one-shot-convert: {self.harness}: no value for {system} / {subject} / {operation}")
        row = {"system": system, "subject": subject, "operation": operation, "value": float(f"{value:.6g}"), "unit": unit, "clock": clock}
        if derived:
            row["derived"] = derived
        self.rows.append(row)

    def ratios(self):
        """As ResultsFile.ratio(of:): how many times better Stasis's value is than the row's."""
        for row in self.rows:
            row["ratio"] = None
            if row["system"] == "Stasis" or row["value"] <= 0:
                continue
            for stasis in self.rows:
                same = all(stasis[key] == row[key] for key in ("subject", "operation", "unit", "clock"))
                if stasis["system"] == "Stasis" and same and stasis["value"] > 0:
                    rate_unit = row["unit"].endswith("/s")
                    row["ratio"] = float(f"{(stasis['value'] / row['value'] if rate_unit else row['value'] / stasis['value']):.6g}")
                    break


def plist_bench(text, out):
    (header, rows), (memory_header, memory_rows) = tables(text)[0], tables(text)[1]
    systems = {"Stasis MB/s": "Stasis", "Foundation PLS": "Foundation PLS", "libplist": "libplist", "Stasis Codable": "Stasis Codable",
               "Foundation Codable": "Foundation Codable"}
    for row in rows:
        operation = row[0].replace(",", "").split()[0].lower() + " " + row[0].split(",")[1].strip()
        for column, system in systems.items():
            out.add(system, f"{row[1]}, {row[2]}", operation, number(row[header.index(column)]), "MB/s")
    for row in memory_rows:
        out.add(row[0], "plist-large.bplist, 13.9 MB", "peak memory, decode", number(row[1]), "MB", "resident")


def archive_bench(text, out):
    header, rows = tables(text)[0]
    for row in rows:
        for column, system in (("Stasis ms", "Stasis"), ("Foundation ms", "Foundation")):
            out.add(system, f"N={int(number(row[0]))}", f"{row[2]} {row[1]}", number(row[header.index(column)]), "ms")


def defaults_bench(text, out):
    _, rows = tables(text)[0]
    keys = re.search(r"([\d,]+) keys", text).group(1).replace(",", "")
    for row in rows:
        label = row[0].replace("`", "")
        if label.startswith("reads"):
            operation, values, unit = label.split(",")[0], (rate(row[1]), rate(row[2])), "/s"
        elif label.startswith("burst"):
            operation, values, unit = f"burst of {int(number(label))} sets", (seconds(row[1]) * 1e3, seconds(row[2]) * 1e3), "ms"
        elif label.startswith("synchronize()"):
            operation, values, unit = label, (seconds(row[1]) * 1e6, seconds(row[2]) * 1e6), "µs"
        else:
            continue  # the file writes a burst caused: counts, not a time
        out.add("Stasis", f"{keys} keys", operation, values[0], unit, "wall")
        out.add("Foundation UserDefaults", f"{keys} keys", operation, values[1], unit, "wall")


def bundle_bench(text, out):
    _, rows = tables(text)[0]
    for row in rows:
        operation = row[0].split(" (")[0]
        unit = "ms" if "ms" in row[1] else "s"
        scale = 1e3 if unit == "ms" else 1.0
        clock = "wall" if unit == "ms" else "cpu"
        out.add("Stasis", "app bundle", operation, seconds(row[1]) * scale, unit, clock)
        out.add("Foundation Bundle", "app bundle", operation, seconds(row[2]) * scale, unit, clock)


def interface_bench(text, out):
    found = tables(text)
    files, loops, nibs = found[0], found[1], found[2]
    header, rows = files
    for row in rows:
        subject = f"{row[0]}, {row[1]}"
        out.add("Stasis", subject, "ibtool --compile, whole process", number(second_run(row[2])), "ms", "wall")
        out.add("Stasis", subject, "ibtool --compile, whole process", number(second_run(row[4])), "ms", "cpu")
    _, rows = loops
    for row in rows:
        operation = "compile all, per document" if row[0] == "compile all" else "compile + compare with Apple's, per document"
        out.add("Stasis", f"{int(number(row[1]))} corpus documents", operation, number(second_run(row[4])), "ms", "wall")
    _, rows = nibs
    for row in rows:
        data, operation = row[0].rsplit(",", 1)
        subject, operation = data.strip(), operation.strip()
        stasis = number(second_run(row[1]))
        out.add("Stasis", subject, operation, stasis, "MB/s")
        if "×" in row[2]:
            ratio = number(second_run(row[2]))
            out.add("Python nibarchive", subject, operation, stasis / ratio, "MB/s", derived="Stasis's MB/s ÷ the printed Stasis ÷ nibarchive ratio")


NIB_KEYS = [
    ("nib from its parsed graph", "nib-graph"), ("nib, one `Nib` instantiated", "nib-reuse"), ("nib from its bytes", "nib-bytes"),
    ("nib from its file", "nib-file"), ("sub-step: `Nib(data:)` only", "nib-open"), ("sub-step: `NIBArchive(bytes:)`", "nib-parse"),
    ("sub-step: objects made", "nib-decode"), ("sub-step: `ClassRegistry", "registry"), ("KeyedArchive, item graph from its bytes", "ka-items"),
    ("KeyedArchive, item graph from its parsed", "ka-items-parsed"), ("KeyedArchive, the nib's tree as `Node`s from bytes", "ka-mirror"),
    ("KeyedArchive, the nib's tree as `Node`s from its parsed", "ka-mirror-parsed"), ("Foundation `NSKeyedUnarchiver`", "foundation-items"),
]


def nib_bench(text, out):
    (header, rows), (_, first_rows) = tables(text)[0], tables(text)[1]
    for row in rows:
        title = row[0].strip()
        key = next((key for prefix, key in NIB_KEYS if title.startswith(prefix)), None)
        system, subject, operation = "Stasis", key, title
        if key in ("ka-items", "foundation-items"):
            system = "Stasis" if key == "ka-items" else "Foundation NSKeyedUnarchiver"
            subject, operation = f"item graph of {int(number(row[4]))} objects", "decode from its bytes"
        elif key is None:
            name = title.split(":")[0]
            subject = f"{name}, " + ("open" if "already open" in title else "cold")
        out.add(system, subject, operation, number(row[1]), "ms")
        out.add(system, subject, operation, number(row[2]), "ms", "wall")
    for row in first_rows:
        out.add("Stasis", row[0], "first load in a fresh process", number(row[2]), "ms")
        out.add("Stasis", row[0], "first load in a fresh process", number(row[3]), "ms", "wall")


def lifecycle_bench(text, out):
    (_, rows), (_, warning_rows) = tables(text)[0], tables(text)[1]
    for row in rows:
        system = "Stasis" if row[0].startswith("Stasis") else "Foundation NotificationCenter"
        subject = "no observers" if "no observers" in row[0] else re.search(r"([\d,]+) observers", row[0]).group(1) + " observers"
        out.add(system, subject, "one post", seconds(row[1]) * 1e9, "ns")
        out.add(system, subject, "one post", seconds(row[2]) * 1e9, "ns", "wall")
    runs = re.search(r"memory warning, (\d+) runs", text).group(1)
    latency = next(row for row in warning_rows if row[0].startswith("latency"))
    out.add("Stasis", f"{runs} warned runs", "memory-warning latency, median", seconds(latency[1]) * 1e3, "ms", "wall")


def restoration_bench(text, out):
    _, rows = tables(text)[0]
    for row in rows:
        label = row[0]
        if label.startswith("save (run 2)") or label.startswith("restore (run 2)"):
            operation = label.split()[0]
            for clock, stasis_column, peer_column in (("wall", 1, 2), ("cpu", 4, 5)):
                out.add("Stasis", "10,000 nodes", operation, seconds(row[stasis_column]) * 1e3, "ms", clock)
                out.add("Foundation NSKeyedArchiver", "10,000 nodes", operation, seconds(row[peer_column]) * 1e3, "ms", clock)
        elif label.startswith("encode + atomic write") or label.startswith("read + decode"):
            operation = ("encode + atomic write" if label.startswith("encode") else "read + decode") + " of the snapshot only"
            out.add("Stasis", "10,000 nodes", operation, number(second_run(row[1])), "ms", "wall")
            out.add("Stasis", "10,000 nodes", operation, number(second_run(row[4])), "ms", "cpu")


def homepwner_bench(text, out):
    _, rows = tables(text)[0]
    parts = {"… encoding": "save: encoding", "… binary plist": "save: binary plist", "… atomic write": "save: atomic write with fsync"}
    for row in rows:
        label = row[0]
        stasis = seconds(row[1]) * 1e3
        if label.startswith("save") or label == "load":
            operation = label.split()[0]
            out.add("Stasis", "10,000 items", operation, stasis, "ms", "wall")
            printed = seconds(row[2])
            if printed is not None:
                out.add("Foundation NSKeyedArchiver", "10,000 items", operation, printed * 1e3, "ms", "wall")
            else:
                out.add("Foundation NSKeyedArchiver", "10,000 items", operation, stasis * number(row[2]), "ms", "wall",
                        derived="Stasis's time × the printed Foundation ÷ Stasis ratio")
        elif label in parts:
            out.add("Stasis", "10,000 items", parts[label], stasis, "ms", "wall")
        elif label.startswith("first frame"):
            out.add("Stasis", "10,000 items", "first frame of the app (spawn to exit)", stasis, "ms", "wall")


HARNESSES = {
    "plist-bench": ("Property lists", plist_bench, "Benchmarks/run.sh"),
    "archive-bench": ("Keyed archives", archive_bench, "Benchmarks/KeyedArchive/run.sh"),
    "defaults-bench": ("User defaults", defaults_bench, "Benchmarks/Defaults/run.sh"),
    "bundle-bench": ("Bundles", bundle_bench, "Benchmarks/Bundles/run.sh"),
    "interface-bench": ("Interface files", interface_bench, "Benchmarks/Interface/run.sh"),
    "nib-bench": ("Nib loading", nib_bench, "Benchmarks/NibLoading/run.sh"),
    "lifecycle-bench": ("Lifecycle", lifecycle_bench, "Benchmarks/Lifecycle/run.sh"),
    "restoration-bench": ("Restoration", restoration_bench, "Benchmarks/Restoration/run.sh --rounds 15"),
    "homepwner-bench": ("Homepwner", homepwner_bench, "Benchmarks/Homepwner/run.sh"),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("harnesses", nargs="+", choices=sorted(HARNESSES))
    parser.add_argument("--doc", default="Docs/benchmarks.md")
    parser.add_argument("--out", default="Benchmarks/results")
    arguments = parser.parse_args()
    found = sections(open(arguments.doc, encoding="utf-8").read())
    for harness in arguments.harnesses:
        section, convert, command = HARNESSES[harness]
        text = found[section]
        date, commit, machine, load, caption = run_caption(text)
        out = Results(harness)
        convert(text, out)
        out.ratios()
        document = {
            "origin": f"converted from the run of {date}, commit {commit}, recorded in Docs/benchmarks.md "
            + ("(run 2 of the two it records) " if caption.startswith("Two runs") else "")
            + "(Benchmarks/results/one-shot-convert-from-benchmarks-md.py); the harness's next run replaces this file",
            "harness": harness, "command": command, "date": date, "library": caption, "commit": commit,
            "machine": f"x86_64, {machine}" if machine else "x86_64, 2 cores", "load": load, "rows": out.rows,
        }
        path = os.path.join(arguments.out, harness + ".json")
        with open(path, "w", encoding="utf-8") as file:
            json.dump(document, file, ensure_ascii=False, indent=2)
            file.write("\n")
        print(f"{harness}: {len(out.rows)} figures → {path}")


if __name__ == "__main__":
    main()
