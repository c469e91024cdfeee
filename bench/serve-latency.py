#!/usr/bin/env python3
"""serve-latency: the time from saving a page to its rebuilt HTML being written, under
`docgen serve`, on a benchmark corpus, and to the search index finding the word the save added.

Usage: bench/serve-latency.py CORPUS_DIR [--docgen target/release/docgen] [--runs 20]

Starts `docgen serve` on a copy of CORPUS_DIR, then edits one page at a time (appending a
unique word to its body, as a writer's save does) and polls the page's output file until
the word appears, then the search index (`index.json` and the shard its list names for the
word) until it holds the word. Prints every sample and the medians, in milliseconds.
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time


def indexed(out, word):
    """Whether the search index in `out` holds `word` (a lower-case ASCII term)."""
    folder = os.path.join(out, "_docgen", "search")
    try:
        with open(os.path.join(folder, "index.json")) as f:
            shards = json.load(f)["shards"]
        # Shards are listed by their first term, in order: the word is in the last one at or
        # before it.
        name = [file for first, file in shards if first <= word][-1]
        with open(os.path.join(folder, name)) as f:
            return word in json.load(f)["t"]
    except (OSError, ValueError, IndexError, KeyError):
        return False


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    corpus = argv[0]
    docgen = argv[argv.index("--docgen") + 1] if "--docgen" in argv else "target/release/docgen"
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 20
    work = tempfile.mkdtemp(prefix="docgen-serve-bench-")
    site, out = os.path.join(work, "site"), os.path.join(work, "out")
    shutil.copytree(corpus, site)
    pages = sorted(
        os.path.join(d, f) for d, _, fs in os.walk(site) for f in fs if f.endswith(".md") and f != "_index.md"
    )[:: max(1, len(os.listdir(site)) // 3)][:runs]
    proc = subprocess.Popen([docgen, "serve", "--root", site, "--out", out, "--port", "0"], stderr=subprocess.PIPE, text=True)
    try:
        for line in proc.stderr:
            if "serving" in line:
                break
        samples, searched = [], []
        for i, page in enumerate(pages):
            rel = os.path.relpath(page, site)[: -len(".md")]
            target = os.path.join(out, rel, "index.html")
            # One token of letters and digits: the index keeps it whole.
            marker = f"zqx{i}marker"
            time.sleep(0.3)  # let the previous rebuild settle
            with open(page, "a") as f:
                f.write(f"\n\n{marker}\n")
            start = time.perf_counter()
            while True:
                try:
                    with open(target) as f:
                        if marker in f.read():
                            break
                except FileNotFoundError:
                    pass
                if time.perf_counter() - start > 30:
                    raise SystemExit(f"no rebuild of {target} within 30 s")
                time.sleep(0.001)
            samples.append((time.perf_counter() - start) * 1000)
            while not indexed(out, marker):
                if time.perf_counter() - start > 30:
                    raise SystemExit(f"the search index did not find {marker} within 30 s")
                time.sleep(0.002)
            searched.append((time.perf_counter() - start) * 1000)
            print(f"{rel}: page {samples[-1]:.1f} ms, search {searched[-1]:.1f} ms")
        print(f"page: median {statistics.median(samples):.1f} ms over {len(samples)} edits (min {min(samples):.1f}, max {max(samples):.1f})")
        print(f"search: median {statistics.median(searched):.1f} ms (min {min(searched):.1f}, max {max(searched):.1f})")
    finally:
        proc.kill()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
