#!/usr/bin/env python3
"""Writes spec.json: the examples of the CommonMark spec, as `spec_tests.py --dump-tests`
of the spec's own repository gives them (the same fields, `→` read as a tab).

Usage: npm pack commonmark-spec@0.31.2 && tar xzf commonmark-spec-0.31.2.tgz
       python3 extract.py package/spec.txt > spec.json
"""
import json
import re
import sys

FENCE = "`" * 32


def examples(spec):
    tests, markdown, html = [], [], []
    state, start_line, section = 0, 0, ""
    with open(spec, encoding="utf-8", newline="\n") as f:
        for number, line in enumerate(f, 1):
            stripped = line.strip()
            if stripped == FENCE + " example":
                state = 1
            elif state == 2 and stripped == FENCE:
                tests.append({
                    "markdown": "".join(markdown).replace("→", "\t"),
                    "html": "".join(html).replace("→", "\t"),
                    "example": len(tests) + 1,
                    "start_line": start_line,
                    "end_line": number,
                    "section": section,
                })
                state, start_line, markdown, html = 0, 0, [], []
            elif stripped == ".":
                state = 2
            elif state == 1:
                start_line = start_line or number - 1
                markdown.append(line)
            elif state == 2:
                html.append(line)
            elif state == 0 and re.match("#+ ", line):
                section = re.sub("#+ ", "", line, count=1).strip()
    return tests


if __name__ == "__main__":
    sys.stdout.write(json.dumps(examples(sys.argv[1]), ensure_ascii=False, indent=2) + "\n")
