#!/usr/bin/env python3
"""After `cmake --build build --target update_translations`: keeps what lupdate lost.

Usage: tools/keep-translations.py BEFORE.ts AFTER.ts   (AFTER is edited in place, as text, so
that lupdate's own layout stays; BEFORE is e.g. `git show main:resources/translations/X.ts`).
- A message left unfinished in AFTER gets the finished translation that BEFORE had for the same
  source text and comment, in any context: strings moved from a page to its controller keep
  their translations.
- A context of BEFORE that AFTER lacks entirely comes back as it was: lupdate does not read the
  sources of sluice_figures (SimulationCharts), so it drops that context.
Prints what it did and every message still unfinished; exits 1 when there is one."""
import re
import sys

MESSAGE = re.compile(r'<message( numerus="yes")?>.*?</message>', re.S)
CONTEXT = re.compile(r'<context>\n    <name>(.*?)</name>.*?</context>\n', re.S)
TRANSLATION = re.compile(r'<translation( type="unfinished")?( */>|>.*?</translation>)', re.S)


def key(block):
    source = re.search(r'<source>(.*?)</source>', block, re.S).group(1)
    comment = re.search(r'<comment>(.*?)</comment>', block, re.S)
    return source, comment.group(1) if comment else None


before = open(sys.argv[1], encoding='utf-8').read()
after = open(sys.argv[2], encoding='utf-8').read()

known = {}
for m in MESSAGE.finditer(before):
    t = TRANSLATION.search(m.group(0))
    if t and not t.group(1) and t.group(2).strip() not in ('/>', '></translation>'):
        known.setdefault(key(m.group(0)), t.group(0))

carried = 0
left = []


def carry(m):
    global carried
    block = m.group(0)
    t = TRANSLATION.search(block)
    if not t or not t.group(1):
        return block
    old = known.get(key(block))
    if old is None:
        left.append(key(block)[0])
        return block
    carried += 1
    return block[:t.start()] + old + block[t.end():]


after = MESSAGE.sub(carry, after)
names = set(CONTEXT.findall(after))
restored = []
for c in CONTEXT.finditer(before):
    if c.group(1) not in names:
        after = after.replace('</TS>', c.group(0) + '</TS>')
        restored.append(c.group(1))
open(sys.argv[2], 'w', encoding='utf-8').write(after)
print(f'{sys.argv[2]}: {carried} translations carried over, contexts restored: '
      f'{", ".join(restored) or "none"}')
for s in left:
    print(f'  unfinished: {s}')
sys.exit(1 if left else 0)
