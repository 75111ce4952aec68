#!/usr/bin/env python3
"""Rewrites #include "x/y.h" to repository-rooted paths ("core/x/y.h", "ui/x/y.h", ...).

Includes of a file in the including file's own folder stay as they are (quotes look there
first, so they cannot be misread). Every other quoted include is resolved against the old
include roots (core/, ui/, app/, tests/) and rewritten with its root. Idempotent: run it again
after a merge. Prints what it could not resolve, and exits 1 if anything was ambiguous."""
import os, re, subprocess, sys

root = subprocess.run(['git', 'rev-parse', '--show-toplevel'], capture_output=True, text=True).stdout.strip()
os.chdir(root)
roots = ['core', 'ui', 'app', 'tests']
files = subprocess.run(['git', 'ls-files', '-co', '--exclude-standard', '--', '*.cpp', '*.h'],
                       capture_output=True, text=True).stdout.split()
pattern = re.compile(r'^(\s*#\s*include\s+")([^"]+)(")', re.M)
bad = 0
changed = 0
for f in files:
    if not any(f.startswith(r + '/') for r in roots):
        continue
    here = os.path.dirname(f)
    text = open(f, encoding='utf-8').read()
    def fix(m):
        global bad
        inc = m.group(2)
        if os.path.exists(os.path.join(here, inc)):
            return m.group(0)          # same folder (or a relative path that works)
        if any(inc.startswith(r + '/') and os.path.exists(inc) for r in roots):
            return m.group(0)          # already rooted
        hits = [r for r in roots if os.path.exists(os.path.join(r, inc))]
        if len(hits) == 1:
            return m.group(1) + hits[0] + '/' + inc + m.group(3)
        if len(hits) > 1:
            print(f'{f}: "{inc}" is ambiguous: {hits}')
            bad += 1
        elif not inc.endswith('.moc') and '_autogen' not in inc and not inc.startswith('ui_'):
            print(f'{f}: "{inc}" not found under {roots}')
        return m.group(0)
    new = pattern.sub(fix, text)
    if new != text:
        open(f, 'w', encoding='utf-8').write(new)
        changed += 1
print(f'{changed} files rewritten')
sys.exit(1 if bad else 0)
