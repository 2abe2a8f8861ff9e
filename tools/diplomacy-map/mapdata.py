"""Reading a written board file (assets/diplomacy/<map>-map.txt) back; the check and the preview use it."""

from shapely.geometry import Polygon
from shapely.ops import unary_union


def _pts(tokens):
    return [tuple(float(v) for v in t.split(",")) for t in tokens]


def read(path):
    """{'canvas': (w, h), 'polys': {owner: [Polygon]}, 'unit'/'label'/'sc': {name: (x, y)}, 'straits': [(a, b)],
    'strait_lines': [((x1, y1), (x2, y2))]}"""
    d = {"polys": {}, "unit": {}, "label": {}, "sc": {}, "dislodged": {}, "straits": [], "strait_lines": []}
    cur = None
    for raw in open(path):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        w = line.split()
        if w[0] == "canvas":
            d["canvas"] = (int(w[1]), int(w[2]))
        elif w[0] == "region":
            cur = [w[1], _pts(w[2:]), []]
            d["polys"].setdefault(w[1], []).append(cur)
        elif w[0] == "hole":
            cur[2].append(_pts(w[1:]))
        elif w[0] in ("unit", "label", "sc", "dislodged"):
            d[w[0]][w[1]] = (float(w[2]), float(w[3]))
        elif w[0] == "strait":
            d["straits"].append((w[1], w[2]))
            d["strait_lines"].append(((float(w[3]), float(w[4])), (float(w[5]), float(w[6]))))
    d["rings"] = d["polys"]
    d["polys"] = {o: [Polygon(s, hs) for _, s, hs in rs] for o, rs in d["polys"].items()}
    d["geom"] = {o: unary_union(ps) for o, ps in d["polys"].items()}
    return d
