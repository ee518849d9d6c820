#!/usr/bin/env python3
# The flame graph tests' reader (t70xx): the frames of a pulse flamegraph
# SVG and of `pulse report -g folded,0,caller,count --no-children` output,
# each as "samples path" lines (every node of the merged caller tree, the
# path its frame names from the root joined by ';'), so that a test
# compares the two with test_cmp.
#   flame-svg.py svg FILE          the SVG's frames (root "all" left out)
#   flame-svg.py folded FILE       the folded output's tree nodes
#   flame-svg.py matched FILE RE   the share (%.2f) a search for RE marks,
#                                  a frame under a matching one counted once
#   flame-svg.py fill FILE PATH    the fill of the frame at PATH
#   flame-svg.py title FILE PATH   its title
#   flame-svg.py rect FILE PATH    its rect's "x y width fill" (PATH "": the root)
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'


def svg_frames(path):
    """{path tuple: (samples, fill, title)} of every frame but the root"""
    root = ET.parse(path).getroot()
    frames_g = [g for g in root.iter(NS + 'g') if g.get('id') == 'frames'][0]
    out = {}

    def walk(g, prefix):
        title = g.find(NS + 'title').text
        m = re.match(r'^(.*) \(([\d,]+) ', title, re.S)
        name, n = m.group(1), int(m.group(2).replace(',', ''))
        here = prefix + (name,)
        r = g.find(NS + 'rect')
        out[here] = (n, r.get('fill'), title,
                     ' '.join(r.get(a) for a in ('x', 'y', 'width', 'fill')))
        for c in g.findall(NS + 'g'):
            walk(c, here)

    for g in frames_g.findall(NS + 'g'):
        walk(g, ())
    # the root "all" as the empty path
    return {k[1:]: v for k, v in out.items()}


def folded_frames(path):
    """{path tuple: samples} of the merged tree of the folded lines"""
    out = {}
    for line in open(path, errors='replace'):
        m = re.match(r'^(\d+) (.*)$', line.rstrip('\n'))
        if not m:
            continue
        n = int(m.group(1))
        # an unresolved frame prints as its address; the graph says [unknown]
        frames = ['[unknown]' if re.match(r'^(0x[0-9a-f]+|0)$', f) else f
                  for f in m.group(2).split(';')]
        for i in range(1, len(frames) + 1):
            k = tuple(frames[:i])
            out[k] = out.get(k, 0) + n
    return out


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd in ('svg', 'folded'):
        fr = svg_frames(path) if cmd == 'svg' else folded_frames(path)
        for k, v in sorted(fr.items()):
            if not k:
                continue
            print(v[0] if cmd == 'svg' else v, ';'.join(k))
    elif cmd == 'matched':
        fr = folded_frames(path)
        rx = re.compile(sys.argv[3])
        total = sum(v for k, v in fr.items() if len(k) == 1)
        hit = 0
        for k, v in fr.items():
            if rx.search(k[-1]) and not any(rx.search(a) for a in k[:-1]):
                hit += v
        print('%.2f' % (100.0 * hit / total))
    elif cmd in ('fill', 'title', 'rect'):
        fr = svg_frames(path)
        k = tuple(sys.argv[3].split(';')) if sys.argv[3] else ()
        if k not in fr:
            sys.exit(1)
        print(fr[k][{'fill': 1, 'title': 2, 'rect': 3}[cmd]])


main()
