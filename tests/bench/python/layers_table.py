"""Joins the RESULT lines of layers_ms.py and layers_torch.py (each run one or more times) into
the table of gradstep issue 15's layer criterion. Usage: layers_table.py GRADSTEP_FILE TORCH_FILE.
Standard library only, so any python3 runs it.

Per layer and side: min = fastest sample over all runs, median = median of the runs' medians.
The verdict uses the ratio of the minimums: on this shared machine a median moves with whatever
else runs (+-40 % between runs), the fastest sample much less; the median ratio is shown beside it.
"""
import statistics
import sys

LIMIT = 1.5


def load(path):
    rows = {}
    with open(path) as f:
        for line in f:
            if line.startswith("RESULT\t"):
                _, name, shape, median, low = line.rstrip("\n").split("\t")
                r = rows.setdefault(name, {"shape": shape, "medians": [], "mins": []})
                r["medians"].append(float(median))
                r["mins"].append(float(low))
    return rows


ours, theirs = load(sys.argv[1]), load(sys.argv[2])
print(f"{'layer (fwd + bwd)':24s} {'input shape':15s} {'gradstep ms':>19s} {'PyTorch ms':>19s} "
      f"{'ratio':>13s}  verdict")
print(f"{'':24s} {'':15s} {'min':>9s} {'median':>9s} {'min':>9s} {'median':>9s} {'min':>6s} {'med':>6s}")
slow = []
for name, r in ours.items():
    a_min, a_med = min(r["mins"]), statistics.median(r["medians"])
    t = theirs.get(name)
    if t is None:
        print(f"{name:24s} {r['shape']:15s} {a_min:9.3f} {a_med:9.3f} {'-':>9s} {'-':>9s}")
        continue
    b_min, b_med = min(t["mins"]), statistics.median(t["medians"])
    ratio_min, ratio_med = a_min / b_min, a_med / b_med
    verdict = "OK" if ratio_min <= LIMIT else "SLOW"
    if verdict == "SLOW":
        slow.append(name)
    print(f"{name:24s} {r['shape']:15s} {a_min:9.3f} {a_med:9.3f} {b_min:9.3f} {b_med:9.3f} "
          f"{ratio_min:6.2f} {ratio_med:6.2f}  {verdict}")
print(f"{len(ours) - len(slow)} of {len(ours)} layers within {LIMIT}x of PyTorch (by minimum); "
      f"SLOW: {', '.join(slow) if slow else 'none'}")
