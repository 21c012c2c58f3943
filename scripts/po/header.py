#!/usr/bin/env python3
"""Puts back a catalog's own header (its first entry) after msgcat took a part file's: po/LL.po's
header as the given earlier copy has it."""
import sys

def split(text):
    i = text.index('\n\n')
    return text[:i], text[i:]

catalog, earlier = sys.argv[1], sys.argv[2]
header, _ = split(open(earlier, encoding='utf-8').read())
_, body = split(open(catalog, encoding='utf-8').read())
open(catalog, 'w', encoding='utf-8').write(header + body)
