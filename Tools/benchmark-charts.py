#!/usr/bin/env python3
"""Draws one SVG chart per benchmark harness from its own output: Stasis beside each peer.

usage: Tools/benchmark-charts.py [--results Benchmarks/results] [--out Docs/images/bench] [--data-only]

Every harness's run.sh writes what it measured as Benchmarks/results/<harness>.json (rows of
system, subject, operation, value, unit, clock, and the run's date, commit and machine); this
script reads those files and nothing else. Each chart takes some of its harness's rows (below:
which), converts them to one unit (times between s, ms, µs and ns; a rate of operations per second
charted as the time of one, 1 / rate), and writes them beside the chart as NAME.tsv (chart, row,
system, value, unit) — the data the chart is drawn from. Charts are horizontal grouped bars, one
group per row, one bar per system; the value axis is logarithmic when the values span more than
30×. The caption under the title names the run (date, commit, and whether the file was converted
from Docs/benchmarks.md rather than written by a run). matplotlib draws them (pip install
matplotlib); no fonts are embedded, so the SVGs stay small and diff cleanly.
"""
import argparse
import csv
import json
import os
import sys

COLOURS = {"Stasis": "#1f6feb", "Stasis Codable": "#58a6ff"}
PEER_COLOURS = ["#d1242f", "#9a6700", "#8250df", "#57606a"]
TIMES = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}


def converted(value, unit, target):
    """`value` in `unit` as `target`: times between themselves, a rate (`/s`) as the time of one."""
    if unit == target:
        return value
    if unit in TIMES and target in TIMES:
        return value * TIMES[unit] / TIMES[target]
    if unit == "/s" and target in TIMES:
        return 1.0 / value / TIMES[target]
    sys.exit(f"benchmark-charts: cannot chart {unit} as {target}")


def short_subject(subject):
    """`plist-small.bplist, 51 KB` → `plist-small.bplist`."""
    return subject.split(",")[0]


# Each chart: (results file, title, unit, which rows: row → (label, system) or None).
CHARTS = {
    "property-lists": (
        "plist-bench", "Property lists: decode and encode throughput (higher is better)", "MB/s",
        lambda row: (f"{row['operation']} · {short_subject(row['subject']).replace('plist-', '')}", row["system"])
        if row["unit"] == "MB/s" and row["system"] in ("Stasis", "Foundation PLS", "libplist") else None),
    "keyed-archives": (
        "archive-bench", "Keyed archives: archive and unarchive time (lower is better)", "ms",
        lambda row: (f"{row['operation']} · {row['subject']}", row["system"]) if row["unit"] in TIMES else None),
    "user-defaults": (
        "defaults-bench", "User defaults: time per operation (lower is better; reads as 1 / rate)", "µs",
        lambda row: (row["operation"], row["system"])),
    "bundles": (
        "bundle-bench", "Bundles: lookups (lower is better)", "ms",
        lambda row: (row["operation"], row["system"])),
    "interface-files": (
        "interface-bench", "NIBArchive read and write, in process (higher is better)", "MB/s",
        lambda row: (f"{row['operation']} · {short_subject(row['subject'])}", row["system"]) if row["unit"] == "MB/s" else None),
    "nib-loading": (
        "nib-bench", "Nib loading: median CPU time (lower is better; Foundation has no nib loader on Linux)", "ms",
        lambda row: (f"{row['subject']} from its bytes", row["system"]) if row["clock"] == "cpu" and row["subject"].startswith("item graph")
        else ("nib of 1,001 live objects from its file + load", row["system"]) if row["clock"] == "cpu" and row["subject"] == "nib-file"
        else None),
    "lifecycle": (
        "lifecycle-bench", "Lifecycle: one state notification posted, CPU (lower is better)", "µs",
        lambda row: (f"{row['operation']}, {row['subject']}", row["system"]) if row["operation"] == "one post" and row["clock"] == "cpu" else None),
    "restoration": (
        "restoration-bench", "State restoration: 10,000 nodes, wall time (lower is better)", "ms",
        lambda row: (row["operation"], row["system"]) if row["operation"] in ("save", "restore") and row["clock"] == "wall" else None),
    "homepwner": (
        "homepwner-bench", "Homepwner: the item store of 10,000 items saved and loaded (lower is better)", "ms",
        lambda row: (row["operation"], row["system"]) if row["operation"] in ("save", "load") else None),
}


def chart_data(results, unit, select):
    data = []
    for row in results["rows"]:
        chosen = select(row)
        if chosen and row["value"] is not None and row["value"] > 0:
            data.append((chosen[0], chosen[1], converted(row["value"], row["unit"], unit), unit))
    return data


def run_caption(results):
    origin = " — converted from Docs/benchmarks.md" if results.get("origin") else ""
    commit = f", commit {results['commit']}" if results.get("commit") else ""
    return f"{results['harness']}, run of {results['date']}{commit}; {results.get('machine', '')}{origin}"


def draw(path, title, caption, unit, data):
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
    figure_height = 1.8 + 0.32 * len(labels) * max(2, len(systems))
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
    # The title and the run's caption from the figure's left edge (the row labels are long).
    figure.text(0.01, 1 - 0.1 / figure_height, title, fontsize=10, va="top")
    figure.text(0.01, 1 - 0.38 / figure_height, caption, fontsize=6.5, color="#57606a", va="top")
    axes.tick_params(axis="x", labelsize=7)
    axes.grid(axis="x", color="#d0d7de", linewidth=0.5)
    axes.set_axisbelow(True)
    figure.legend(fontsize=7, loc="lower center", ncol=len(systems), frameon=False)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    figure.tight_layout(rect=(0, 0.3 / figure_height, 1, 1 - 0.6 / figure_height))
    figure.savefig(path, format="svg", metadata={"Date": None, "Creator": "Tools/benchmark-charts.py"})
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default="Benchmarks/results")
    parser.add_argument("--out", default="Docs/images/bench")
    parser.add_argument("--data-only", action="store_true", help="write the TSV files, not the charts")
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    for name, (harness, title, unit, select) in CHARTS.items():
        path = os.path.join(arguments.results, harness + ".json")
        try:
            with open(path, encoding="utf-8") as file:
                results = json.load(file)
        except (OSError, ValueError) as error:
            sys.exit(f"benchmark-charts: {path}: {error} (run the harness's run.sh to write it)")
        data = chart_data(results, unit, select)
        if not data:
            sys.exit(f"benchmark-charts: {name}: {path} has none of the rows the chart draws")
        with open(os.path.join(arguments.out, name + ".tsv"), "w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file, delimiter="\t", lineterminator="\n")
            writer.writerow(["chart", "row", "system", "value", "unit"])
            for label, system, value, row_unit in data:
                writer.writerow([name, label, system, f"{value:.6g}", row_unit])
        if not arguments.data_only:
            draw(os.path.join(arguments.out, name + ".svg"), title, run_caption(results), unit, data)
        print(f"{name}: {len(data)} values from {path}" + ("" if arguments.data_only else f" → {arguments.out}/{name}.svg"))


if __name__ == "__main__":
    main()
