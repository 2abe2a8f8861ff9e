#!/usr/bin/env python3
"""Builds gamehost's Diplomacy board geometry (assets/diplomacy/standard-map.txt).

Run once when the authored boundaries (provinces.txt) change; the Rust code
only reads the committed output, so building gamehost needs neither Python
nor Node. See README.md beside this file.

Steps: Natural Earth land and countries (world-atlas TopoJSON) are projected
onto the board canvas; the authored regions in provinces.txt are painted in
order onto the land (land provinces) and onto the water (sea provinces), each
taking only what no earlier region took, so the result is a planar partition
with no gaps or overlaps; what no region takes is neutral land or water. The
partition is simplified as a coverage (shared borders stay shared), anchors
are placed, the file is written, and check_borders.py compares the borders of
the written file with the rules' adjacency data.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.ops import nearest_points, polylabel, unary_union

import proj
import topo

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
WORLD_ATLAS = "world-atlas@2.0.2"

# The canvas: projected (unit-sphere LCC) window and pixels per unit.
X0, X1, Y0, Y1 = -0.405, 0.36, -0.355, 0.375
SCALE = 1560.0
WIDTH = round((X1 - X0) * SCALE)
HEIGHT = round((Y1 - Y0) * SCALE)

MIN_PIECE = 6.0  # px^2: land or water pieces smaller than this are merged into a neighbour
SIMPLIFY = 0.8  # px: coverage simplification tolerance


def px(lon, lat):
    """Board pixel of a lon/lat point (x right, y down)."""
    x, y = proj.lens(*proj.lcc(lon, lat))
    return ((x - X0) * SCALE, (Y1 - y) * SCALE)


def project_geom(g):
    """A lon/lat geometry in board pixels."""
    return shapely.transform(g, lambda a: _proj_array(a))


def _proj_array(a):
    out = np.empty_like(a)
    for i, (lon, lat) in enumerate(a):
        out[i] = px(lon, max(-89.0, min(89.0, lat)))
    return out


def densify_poly(pts, step=0.5):
    """A lon/lat polygon with extra vertices, so its straight lon/lat edges project as curves."""
    out = []
    for (a, b) in zip(pts, pts[1:] + pts[:1]):
        n = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / step))
        for k in range(n):
            t = k / n
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out


def fetch_atlas(path):
    """The world-atlas countries-50m TopoJSON, from a path or fetched with npm pack."""
    if path:
        return json.load(open(path))
    cache = os.path.join(tempfile.gettempdir(), "gamehost-world-atlas")
    f = os.path.join(cache, "package", "countries-50m.json")
    if not os.path.exists(f):
        os.makedirs(cache, exist_ok=True)
        subprocess.run(["npm", "pack", WORLD_ATLAS], cwd=cache, check=True)
        tgz = [n for n in os.listdir(cache) if n.endswith(".tgz")][0]
        subprocess.run(["tar", "xzf", tgz], cwd=cache, check=True)
    return json.load(open(f))


def parse_authored(path):
    """The authored boundary file: painting entries (in order) and anchor overrides."""
    entries, anchors = [], {}
    for n, raw in enumerate(open(path), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = [p.strip() for p in line.split("|")]
        head = parts[0].split()
        kind = head[0]
        if kind in ("unit", "label", "sc", "dislodged"):
            anchors[(kind, head[1])] = (float(head[2]), float(head[3]))
            continue
        if kind == "strait":
            anchors.setdefault("straits", []).append((head[1], head[2]))
            continue
        if kind not in ("land", "sea", "fill", "close"):
            sys.exit(f"{path}:{n}: unknown line kind {kind!r}")
        arg = head[1] if len(head) > 1 else None
        comps = []
        for p in parts[1:]:
            w = p.split(None, 1)
            if w[0] == "poly":
                nums = [float(v) for v in w[1].split()]
                comps.append(("poly", list(zip(nums[0::2], nums[1::2]))))
            elif w[0] == "countries":
                comps.append(("countries", [c.strip() for c in w[1].split(",")]))
            else:
                sys.exit(f"{path}:{n}: unknown component {w[0]!r}")
        entries.append((kind, arg, comps, n))
    return entries, anchors


def component_geom(comp, countries_px):
    kind, val = comp
    if kind == "poly":
        return Polygon([px(*p) for p in densify_poly(val)]).buffer(0)
    missing = [c for c in val if c not in countries_px]
    if missing:
        sys.exit(f"unknown countries {missing}")
    return unary_union([countries_px[c] for c in val])


def entry_geom(comps, countries_px):
    g = None
    for c in comps:
        cg = component_geom(c, countries_px)
        g = cg if g is None else g.intersection(cg)
    return g


def polys_of(g):
    if g.is_empty:
        return []
    if isinstance(g, Polygon):
        return [g]
    if isinstance(g, MultiPolygon):
        return list(g.geoms)
    return [p for p in getattr(g, "geoms", []) if isinstance(p, Polygon)]


def build(atlas_path):
    topo_json = fetch_atlas(atlas_path)
    land_ll, countries_ll = topo.load(topo_json)
    board = box(0, 0, WIDTH, HEIGHT)
    # Only what is near the board is projected.
    near = box(-45, 20, 75, 85)
    land = project_geom(land_ll.intersection(near)).buffer(0).intersection(board)
    countries_px = {}
    for name, g in countries_ll.items():
        g = g.intersection(near)
        if not g.is_empty:
            countries_px[name] = project_geom(g).buffer(0)
    entries, anchors = parse_authored(os.path.join(HERE, "provinces.txt"))

    # Straits closed or filled as land (so e.g. the Baltic and the Skagerrak meet only through Denmark).
    for kind, arg, comps, _ in entries:
        if kind == "fill":
            land = land.union(entry_geom(comps, countries_px).intersection(board))
        elif kind == "close":
            r = float(arg)
            region = entry_geom(comps, countries_px)
            closed = land.buffer(r, quad_segs=4).buffer(-r, quad_segs=4)
            land = land.union(closed.intersection(region).intersection(board))
    land = land.buffer(0)
    water = board.difference(land)

    regions = []  # (owner, geometry): owner is a province abbr, '~land' or '~sea'
    claimed = {"land": None, "sea": None}
    order = []
    by_owner = {}
    for kind, owner, comps, n in entries:
        if kind not in ("land", "sea"):
            continue
        base = land if kind == "land" else water
        g = entry_geom(comps, countries_px).intersection(base)
        if claimed[kind] is not None:
            g = g.difference(claimed[kind])
        claimed[kind] = g if claimed[kind] is None else claimed[kind].union(g)
        key = owner if owner != "-" else f"~{kind}"
        if key not in by_owner:
            by_owner[key] = []
            order.append(key)
        by_owner[key].append(g)
    by_owner.setdefault("~land", []).append(land.difference(claimed["land"]))
    by_owner.setdefault("~sea", []).append(water.difference(claimed["sea"]))
    for k in ("~land", "~sea"):
        if k not in order:
            order.append(k)

    # One list of polygon pieces; tiny pieces merge into the neighbour with the longest shared edge.
    pieces = []
    for key in order:
        g = unary_union(by_owner[key])
        g = shapely.set_precision(g, 0.01)
        for p in polys_of(g):
            if p.area > 1e-6:
                pieces.append([key, p])
    pieces = merge_small(pieces)
    geoms = shapely.coverage_simplify([p for _, p in pieces], SIMPLIFY)
    out = {}
    for (key, _), g in zip(pieces, geoms):
        g = shapely.set_precision(g, 0.1)
        out.setdefault(key, []).extend(polys_of(g))
    return out, anchors


def merge_small(pieces):
    """Pieces under MIN_PIECE px^2 join the neighbouring piece they share most border with."""
    tree = shapely.STRtree([p for _, p in pieces])
    alive = [True] * len(pieces)
    for i, (key, p) in enumerate(pieces):
        if p.area >= MIN_PIECE:
            continue
        best, best_len = None, 0.0
        for j in tree.query(p.buffer(0.05)):
            if j == i or not alive[j]:
                continue
            ln = p.boundary.intersection(pieces[j][1].buffer(0.05)).length
            if ln > best_len:
                best, best_len = j, ln
        if best is None:
            alive[i] = False
            continue
        pieces[best][1] = pieces[best][1].union(p).buffer(0)
        alive[i] = False
    out = []
    for i, (key, p) in enumerate(pieces):
        if alive[i]:
            for q in polys_of(p):
                out.append([key, q])
    return out


def main_polygon(polys):
    return max(polys, key=lambda p: p.area)


def free_point(poly, avoid, radius):
    """The point of poly farthest inside it, keeping `radius` px clear of the points in `avoid`."""
    g = poly
    for a in avoid:
        g = g.difference(Point(a).buffer(radius))
    parts = polys_of(g) or [poly]
    best = max(parts, key=lambda p: p.area)
    c = polylabel(best, tolerance=0.5)
    return (round(c.x, 1), round(c.y, 1))


def anchors_for(regions, anchors, locations, provinces):
    """Unit, label, supply-centre and dislodged-unit points: authored (lon/lat) where given, else placed inside the province."""
    unit, label, sc, dislodged = {}, {}, {}, {}
    for abbr, _, has_sc in provinces:
        main = main_polygon(regions[abbr])
        s = inside(regions[abbr], authored_any(anchors, "sc", abbr)) if has_sc else None
        if has_sc:
            s = s or free_point(main, [], 0)
            sc[abbr] = s
        keep_clear = [s] if s else []
        u = inside(regions[abbr], authored_any(anchors, "unit", abbr)) or free_point(main, keep_clear, 18)
        unit[abbr] = u
        label[abbr] = authored_any(anchors, "label", abbr) or free_point(main, keep_clear + [u], 18)
        # A dislodged unit stands beside the unit that dislodged it, inside its own province.
        dislodged[abbr] = authored_any(anchors, "dislodged", abbr) or near_point(main, u, keep_clear + [u, label[abbr]])
    for loc in locations:
        if "/" in loc:
            a = authored_any(anchors, "unit", loc)
            if a is None:
                sys.exit(f"split coast {loc} needs an authored unit point")
            unit[loc] = a
    return unit, label, sc, dislodged


def near_point(poly, at, avoid):
    """The point of poly nearest `at` that keeps a token's room from `avoid` and from the outline."""
    room = poly.buffer(-12)
    for a in avoid:
        room = room.difference(Point(a).buffer(20))
    if room.is_empty:
        room = poly.buffer(-7)
        for a in avoid[:1]:
            room = room.difference(Point(a).buffer(14))
    if room.is_empty:
        return free_point(poly, avoid, 14)
    q = nearest_points(room, Point(at))[0]
    return (round(q.x, 1), round(q.y, 1))


def inside(polys, at):
    """An authored point, moved just inside the province if it fell on the water (a port city)."""
    if at is None:
        return None
    g = unary_union(polys)
    if g.contains(Point(at)):
        return at
    q = nearest_points(g.buffer(-3), Point(at))[0]
    return (round(q.x, 1), round(q.y, 1))


def authored_any(anchors, k, name):
    """An authored anchor in board pixels, or None."""
    if (k, name) in anchors:
        x, y = px(*anchors[(k, name)])
        return (round(x, 1), round(y, 1))
    return None


def read_rules(path):
    """Provinces (abbr, terrain, is supply centre), locations and adjacency from the rules' map file."""
    provinces, coasts, army, fleet = [], {}, set(), set()
    for raw in open(path):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        w = line.split()
        if w[0] == "prov":
            provinces.append((w[1], w[2], w[3] != "-"))
        elif w[0] == "coasts":
            coasts[w[1]] = w[2:]
        elif w[0] in ("army", "fleet"):
            src = w[1].rstrip(":")
            for dst in w[2:]:
                (army if w[0] == "army" else fleet).add((src, dst))
    locations = [p[0] for p in provinces]
    for p, cs in coasts.items():
        locations += [f"{p}/{c}" for c in cs]
    return provinces, locations, army, fleet


def fmt_ring(coords):
    pts = list(coords)[:-1]
    return " ".join(f"{x:g},{y:g}" for x, y in pts)


def write(path, regions, unit, label, sc, dislodged, provinces, locations, straits):
    with open(path, "w") as f:
        f.write(
            "# The standard Diplomacy board for gamehost's map image. GENERATED by\n"
            "# tools/diplomacy-map/build_map.py from Natural Earth coastlines and country\n"
            "# borders (public domain, via the world-atlas package) and the province\n"
            "# boundaries authored in tools/diplomacy-map/provinces.txt; do not edit by hand.\n"
            "#\n"
            "#   canvas <width> <height>            pixels, x right, y down\n"
            "#   region <owner> <x,y> <x,y> ...     one polygon's outer ring; owner is a province,\n"
            "#                                      ~land (off-board land) or ~sea (off-board water)\n"
            "#   hole <x,y> ...                     a hole of the region line above it\n"
            "#   unit <location> <x> <y>            where a unit stands (split coasts: stp/nc)\n"
            "#   label <province> <x> <y>           where the province's name goes\n"
            "#   sc <province> <x> <y>              where the supply-centre marker goes\n"
            "#   dislodged <province> <x> <y>       where a unit dislodged there is drawn\n"
            "#   strait <a> <b> <x1> <y1> <x2> <y2> adjacent provinces drawn without a shared border:\n"
            "#                                      a crossing over water (Denmark-Sweden), drawn\n"
            "#                                      from (x1, y1) on a's coast to (x2, y2) on b's\n"
        )
        f.write(f"canvas {WIDTH} {HEIGHT}\n")
        owners = [p[0] for p in provinces] + ["~land", "~sea"]
        for o in owners:
            for p in sorted(regions.get(o, []), key=lambda p: -p.area):
                f.write(f"region {o} {fmt_ring(p.exterior.coords)}\n")
                for h in p.interiors:
                    f.write(f"hole {fmt_ring(h.coords)}\n")
        for a, b in straits:
            # The crossing is drawn between the nearest points of the two coasts.
            p, q = nearest_points(unary_union(regions[a]), unary_union(regions[b]))
            f.write(f"strait {a} {b} {p.x:.1f} {p.y:.1f} {q.x:.1f} {q.y:.1f}\n")
        for loc in locations:
            x, y = unit[loc]
            f.write(f"unit {loc} {x:g} {y:g}\n")
        for abbr, _, _ in provinces:
            x, y = label[abbr]
            f.write(f"label {abbr} {x:g} {y:g}\n")
        for abbr, _, _ in provinces:
            x, y = dislodged[abbr]
            f.write(f"dislodged {abbr} {x:g} {y:g}\n")
        for abbr, _, has_sc in provinces:
            if has_sc:
                x, y = sc[abbr]
                f.write(f"sc {abbr} {x:g} {y:g}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--atlas", help="countries-50m.json of world-atlas (default: npm pack " + WORLD_ATLAS + ")")
    ap.add_argument("--out", default=os.path.join(REPO, "assets", "diplomacy", "standard-map.txt"))
    ap.add_argument("--preview", help="also render a preview PNG here")
    a = ap.parse_args()
    rules = os.path.join(REPO, "src", "games", "diplomacy", "geo", "standard.txt")
    if not os.path.exists(rules):
        rules = os.path.join(REPO, "crates", "games", "src", "diplomacy", "geo", "standard.txt")
    provinces, locations, army, fleet = read_rules(rules)
    regions, anchors = build(a.atlas)
    missing = [p for p, _, _ in provinces if p not in regions]
    if missing:
        sys.exit(f"provinces with no region: {missing}")
    unit, label, sc, dislodged = anchors_for(regions, anchors, locations, provinces)
    write(a.out, regions, unit, label, sc, dislodged, provinces, locations, anchors.get("straits", []))
    print(f"wrote {a.out} ({os.path.getsize(a.out)} bytes, canvas {WIDTH}x{HEIGHT})")
    import check_borders

    ok = check_borders.check(a.out, rules)
    if a.preview:
        import preview

        preview.render(a.out, rules, a.preview)
        print(f"preview {a.preview}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
