#!/usr/bin/env python3
"""Draws one SVG chart per benchmark of Docs/benchmarks.md: Stasis beside each peer.

usage: Tools/benchmark-charts.py [--doc Docs/benchmarks.md] [--out Docs/images/bench]

The figures are the harnesses' own output as Docs/benchmarks.md records it: each benchmark's
results table (the Markdown table its harness printed) is parsed, the values converted to one unit
per chart (derived values say how: a peer's time from Stasis's time and the printed ratio), and
written beside the chart as NAME.tsv (chart, row, system, value, unit) — the data the chart is drawn
from. Charts are horizontal grouped bars, one group per row, one bar per system; the value axis is
logarithmic when the values span more than 30× (most Stasis-vs-peer ratios do). matplotlib draws
them (pip install matplotlib); no fonts are embedded, so the SVGs stay small and diff cleanly.
"""
import argparse
import csv
import os
import re
import sys

COLOURS = {"Stasis": "#1f6feb", "Stasis Codable": "#58a6ff"}
PEER_COLOURS = ["#d1242f", "#9a6700", "#8250df", "#57606a"]


def tables(markdown):
    """Every Markdown table with the heading it sits under: (section, header, rows, line)."""
    found, section, lines = [], "", markdown.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("## "):
            section = line[3:].strip()
        if line.startswith("|") and index + 1 < len(lines) and re.match(r"^\|[\s:|-]+\|$", lines[index + 1].strip()):
            header = cells(line)
            rows = []
            index += 2
            while index < len(lines) and lines[index].startswith("|"):
                rows.append(cells(lines[index]))
                index += 1
            found.append((section, header, rows, index))
            continue
        index += 1
    return found


def cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
RATES = {"": 1.0, "k": 1e3, "M": 1e6}


def number(text):
    """The first number of a cell (commas and bold marks aside), or None."""
    match = re.search(r"-?[\d,]*\.?\d+", text.replace("**", ""))
    return float(match.group(0).replace(",", "")) if match else None


def seconds(text):
    """A cell's first time (`24.7 ms`, `0.049 s`, `8298 µs`) in seconds, or None."""
    match = re.search(r"(-?[\d,]*\.?\d+)\s*(ns|µs|us|ms|s)\b", text)
    return float(match.group(1).replace(",", "")) * UNITS[match.group(2)] if match else None


def rate(text):
    """A cell's rate (`10.9 M/s`, `681 k/s`) per second, or None."""
    match = re.search(r"([\d,]*\.?\d+)\s*([kM]?)/s", text)
    return float(match.group(1).replace(",", "")) * RATES[match.group(2)] if match else None


def table(all_tables, section, which=0):
    matches = [t for t in all_tables if t[0] == section]
    if len(matches) <= which:
        sys.exit(f"benchmark-charts: no table {which + 1} under '## {section}' in the document")
    return matches[which]


def column(header, name):
    for index, title in enumerate(header):
        if title == name:
            return index
    sys.exit(f"benchmark-charts: no column '{name}' in {header}")


def plists(all_tables):
    _, header, rows, _ = table(all_tables, "Property lists")
    data = []
    for row in rows:
        label = f"{row[0]} · {row[1].replace('plist-', '')}"
        for system, name in [("Stasis", "Stasis MB/s"), ("Foundation PropertyListSerialization", "Foundation PLS"), ("libplist", "libplist")]:
            data.append((label, system, number(row[column(header, name)]), "MB/s"))
    return "Property lists: decode and encode throughput (higher is better)", "MB/s", data


def keyed_archives(all_tables):
    _, header, rows, _ = table(all_tables, "Keyed archives")
    data = []
    for row in rows:
        label = f"{row[2]} · {row[1]} · N={int(number(row[0])):,}"
        data.append((label, "Stasis", number(row[column(header, "Stasis ms")]), "ms"))
        data.append((label, "Foundation NSKeyedArchiver", number(row[column(header, "Foundation ms")]), "ms"))
    return "Keyed archives: archive and unarchive time (lower is better)", "ms", data


def defaults(all_tables):
    _, header, rows, _ = table(all_tables, "User defaults")
    data = []
    for row in rows:
        stasis, peer = row[1], row[2]
        # A row without a ratio ("—") compares no like values (what a burst caused on disk).
        if row[3].strip() in ("—", "-", ""):
            continue
        # Reads are printed as rates: charted as the time of one read (1 / rate).
        if rate(stasis) and rate(peer):
            values = (1e6 / rate(stasis), 1e6 / rate(peer))
        elif seconds(stasis) is not None and seconds(peer) is not None:
            values = (seconds(stasis) * 1e6, seconds(peer) * 1e6)
        else:
            continue
        label = re.sub(r"`", "", row[0])
        data.append((label, "Stasis", values[0], "µs"))
        data.append((label, "Foundation UserDefaults", values[1], "µs"))
    return "User defaults: time per operation (lower is better; reads as 1 / rate)", "µs", data


def bundles(all_tables):
    _, header, rows, _ = table(all_tables, "Bundles")
    data = []
    for row in rows:
        label = re.sub(r"\s*\(.*\)", "", row[0])
        data.append((label, "Stasis", seconds(row[1]) * 1e3, "ms"))
        data.append((label, "Foundation Bundle", seconds(row[2]) * 1e3, "ms"))
    return "Bundles: lookups (lower is better)", "ms", data


def interface(all_tables):
    data = []
    _, header, rows, _ = table(all_tables, "Interface files", 2)
    for row in rows:
        ratio = number(row[2].split("/")[0]) if "×" in row[2] else None
        stasis = number(row[1].split("/")[0])
        label = row[0].split(",", 1)[1].strip() + " · " + row[0].split(",")[0].replace(" corpus nibs", " nibs")
        data.append((label, "Stasis", stasis, "MB/s"))
        if ratio:
            # The peer's throughput is not printed: Stasis's divided by the printed ratio.
            data.append((label, "nibarchive (Python)", stasis / ratio, "MB/s"))
    return "NIBArchive read and write, run 1 (higher is better; nibarchive = Stasis ÷ printed ratio)", "MB/s", data


def nib_loading(all_tables):
    _, header, rows, _ = table(all_tables, "Nib loading")
    wanted = {
        "KeyedArchive, item graph from its bytes (`unarchivedObject(ofClass:from:)`)": ("item graph of 1,001 objects from bytes", "Stasis"),
        "Foundation `NSKeyedUnarchiver`, item graph from its bytes": ("item graph of 1,001 objects from bytes", "Foundation NSKeyedUnarchiver"),
    }
    data = []
    for row in rows:
        if row[0] in wanted:
            label, system = wanted[row[0]]
            data.append((label, system, number(row[1]), "ms"))
    for row in rows:
        if row[0].startswith("nib from its file"):
            data.append(("nib of 1,001 objects from its file + load", "Stasis", number(row[1]), "ms"))
    return "Nib loading: median CPU time (lower is better; Foundation has no nib loader on Linux)", "ms", data


def lifecycle(all_tables):
    _, header, rows, _ = table(all_tables, "Lifecycle")
    data = []
    for row in rows:
        observers = "1,000 observers" if "1,000" in row[0] else "no observers"
        system = "Stasis" if row[0].startswith("Stasis") else "Foundation NotificationCenter"
        data.append((f"one post, {observers}", system, seconds(row[1]) * 1e6, "µs"))
    return "Lifecycle: one state notification posted (lower is better)", "µs", data


def restoration(all_tables):
    _, header, rows, _ = table(all_tables, "Restoration")
    data = []
    for row in rows[:4]:
        label = ("save" if row[0].startswith("save") else "restore") + (" (run 2)" if "run 2" in row[0] else " (run 1)")
        data.append((label, "Stasis", seconds(row[1]) * 1e3, "ms"))
        data.append((label, "Foundation NSKeyedArchiver", seconds(row[2]) * 1e3, "ms"))
    return "State restoration: 10,000 nodes, wall time (lower is better)", "ms", data


def homepwner(all_tables):
    _, header, rows, _ = table(all_tables, "Homepwner")
    data = []
    for row in rows:
        if row[0].startswith("save") or row[0] == "load":
            label = "save 10,000 items" if row[0].startswith("save") else "load 10,000 items"
            stasis = seconds(row[1]) * 1e3
            printed = seconds(row[2])
            # The load's Foundation time is printed as a ratio only: Stasis's time × the ratio.
            peer = printed * 1e3 if printed is not None else stasis * number(row[2])
            data.append((label, "Stasis", stasis, "ms"))
            data.append((label, "Foundation NSKeyedArchiver", peer, "ms"))
    return "Homepwner: the item store saved and loaded (lower is better)", "ms", data


CHARTS = {
    "property-lists": plists,
    "keyed-archives": keyed_archives,
    "user-defaults": defaults,
    "bundles": bundles,
    "interface-files": interface,
    "nib-loading": nib_loading,
    "lifecycle": lifecycle,
    "restoration": restoration,
    "homepwner": homepwner,
}


def draw(path, title, unit, data):
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams["svg.fonttype"] = "none"
    matplotlib.rcParams["svg.hashsalt"] = "stasis-benchmarks"
    matplotlib.rcParams["font.family"] = "sans-serif"
    labels = list(dict.fromkeys(row[0] for row in data))
    systems = list(dict.fromkeys(row[1] for row in data))
    values = {(row[0], row[1]): row[2] for row in data}
    positive = [v for v in values.values() if v and v > 0]
    logarithmic = max(positive) / min(positive) > 30
    height = 0.8 / len(systems)
    figure_height = 1.2 + 0.32 * len(labels) * max(2, len(systems))
    figure, axes = plt.subplots(figsize=(8.5, figure_height))
    peers = iter(PEER_COLOURS)
    for index, system in enumerate(systems):
        colour = COLOURS.get(system) or next(peers)
        ys = [position + (index - (len(systems) - 1) / 2) * height for position in range(len(labels))]
        xs = [values.get((label, system)) or 0 for label in labels]
        bars = axes.barh(ys, xs, height=height * 0.92, color=colour, label=system)
        for bar, value in zip(bars, xs):
            if value:
                text = f"{value:,.3g}" if value < 1000 else f"{value:,.0f}"
                axes.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, " " + text, va="center", fontsize=7)
    axes.set_yticks(range(len(labels)))
    axes.set_yticklabels(labels, fontsize=8)
    axes.invert_yaxis()
    if logarithmic:
        axes.set_xscale("log")
    axes.set_xlabel(unit + (" (log scale)" if logarithmic else ""), fontsize=8)
    axes.set_title(title, fontsize=10, loc="left")
    axes.tick_params(axis="x", labelsize=7)
    axes.grid(axis="x", color="#d0d7de", linewidth=0.5)
    axes.set_axisbelow(True)
    figure.legend(fontsize=7, loc="lower center", ncol=len(systems), frameon=False)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    figure.tight_layout(rect=(0, 0.3 / figure_height, 1, 1))
    figure.savefig(path, format="svg", metadata={"Date": None, "Creator": "Tools/benchmark-charts.py"})
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--doc", default="Docs/benchmarks.md")
    parser.add_argument("--out", default="Docs/images/bench")
    parser.add_argument("--data-only", action="store_true", help="write the TSV files, not the charts")
    arguments = parser.parse_args()
    all_tables = tables(open(arguments.doc, encoding="utf-8").read())
    os.makedirs(arguments.out, exist_ok=True)
    for name, extract in CHARTS.items():
        title, unit, data = extract(all_tables)
        if not data or any(value is None for _, _, value, _ in data):
            sys.exit(f"benchmark-charts: {name}: a value could not be read from its table")
        with open(os.path.join(arguments.out, name + ".tsv"), "w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file, delimiter="\t", lineterminator="\n")
            writer.writerow(["chart", "row", "system", "value", "unit"])
            for label, system, value, row_unit in data:
                writer.writerow([name, label, system, f"{value:.6g}", row_unit])
        if not arguments.data_only:
            draw(os.path.join(arguments.out, name + ".svg"), title, unit, data)
        print(f"{name}: {len(data)} values" + ("" if arguments.data_only else f" → {arguments.out}/{name}.svg"))


if __name__ == "__main__":
    main()
