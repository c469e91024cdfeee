"""Copies a generated corpus and relabels its fenced code blocks in rotation over 34
languages, so a build highlights every lexer (usage: relabel-fences.py SRC DST)."""
import os, re, sys, shutil
src, dst = sys.argv[1], sys.argv[2]
langs = ("bash c cpp csharp css diff go graphql html ini java javascript json jsx kotlin lua "
         "markdown objc php python ruby rust scss sql swift toml tsx typescript xml yaml "
         "dockerfile groovy dart proto").split()
shutil.rmtree(dst, ignore_errors=True)
shutil.copytree(src, dst)
fence = re.compile(r'^```[A-Za-z0-9#+_.-]+', re.M)
i = 0
for root, _, files in os.walk(dst):
    for f in sorted(files):
        if not f.endswith('.md'):
            continue
        p = os.path.join(root, f)
        text = open(p, encoding='utf-8').read()
        def relabel(m):
            global i
            i += 1
            return '```' + langs[i % len(langs)]
        new = fence.sub(relabel, text)
        if new != text:
            open(p, 'w', encoding='utf-8').write(new)
print(i, 'fences relabelled over', len(langs), 'languages')
