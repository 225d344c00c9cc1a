"""Where `bowline train` spends its time, per stage, from `perf script -F tid,time,ip,sym` dumps.

Each sample goes to the stage of the first frame of its chain that names one (the call chains are
short without frame pointers); a sample no frame names (the allocator, the kernel) goes to the
stage its thread ran last. Each stage's wall time is the 20 ms windows it leads (windows without a
sample, when no thread runs, are left out); its CPU time is its samples over the sampling
frequency. Prints the median of each over the dumps.

    python3 benches/stages.py FREQUENCY DUMP...
"""
import re
import statistics
import sys

STAGES = [
    ("read and analyze", r"analyze::|rust_stemmers|memo::|tokeni[sz]|corpus::|decode|read_to"),
    ("count terms", r"fitter::|interner::|counting::|term_list::|hashbrown"),
    ("vocabulary, weights, rows", r"vocabulary::|fitted::|matrix::|from_keys|ieee754_log|sort::"),
    ("SVM solver", r"linear_svm::|platt::"),
    ("model write", r"model::format|crc32|to_bytes|ksys_write|fsync|rename"),
]
ORDER = [name for name, _ in STAGES]


def samples(path):
    """(thread, time, stage or None) per sample, in file order."""
    out, current = [], None
    for line in open(path):
        header = re.match(r"\s*(\d+)\s+([\d.]+):", line)
        if header:
            current = [int(header.group(1)), float(header.group(2)), None]
            out.append(current)
        elif current is not None and current[2] is None:
            current[2] = next((n for n, p in STAGES if re.search(p, line)), None)
    return out


def stages(path, period, window=0.02):
    """{stage: (wall seconds, CPU seconds)} of one dump."""
    rows, last = samples(path), {}
    for row in rows:
        row[2] = row[2] or last.get(row[0], ORDER[0])
        last[row[0]] = row[2]
    start = min(r[1] for r in rows)
    # The stages overlap at their edges (the pipeline counts terms while it analyzes), so each
    # 20 ms of the run is charged, whole, to the stage most of its samples belong to.
    windows = {}
    for _, time, stage in rows:
        counts = windows.setdefault(int((time - start) / window), {})
        counts[stage] = counts.get(stage, 0) + 1
    wall = {n: 0.0 for n in ORDER}
    for counts in windows.values():
        wall[max(counts, key=counts.get)] += window
    cpu = {n: sum(period for r in rows if r[2] == n) for n in ORDER}
    return {n: (wall[n], cpu[n]) for n in ORDER}


def main():
    period = 1.0 / float(sys.argv[1])
    runs = [stages(path, period) for path in sys.argv[2:]]
    for n in ORDER + ["whole"]:
        if n == "whole":
            wall = [sum(w for w, _ in r.values()) for r in runs]
            cpu = [sum(c for _, c in r.values()) for r in runs]
        else:
            wall, cpu = [r[n][0] for r in runs], [r[n][1] for r in runs]
        print(f"{n:28s} {statistics.median(wall):5.2f} s wall  {statistics.median(cpu):5.2f} s CPU")


main()
