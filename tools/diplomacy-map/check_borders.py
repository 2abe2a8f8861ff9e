#!/usr/bin/env python3
"""The border check: the drawn board's shared borders against the rules' adjacency.

Two provinces share a border when their polygons share boundary of at least
MIN_BORDER px. Every adjacent pair (army or fleet) must share one, except the
strait crossings listed in the map file (`strait a b`); no other pair may
share one. Impassable provinces (Switzerland) have no adjacency and are
skipped. Each split coast's unit point must lie nearest to the border with a
sea that coast reaches, and every sea a coast reaches must border the
province near that coast's point.
"""

import sys

from shapely.geometry import Point

import mapdata

MIN_BORDER = 3.0  # px of shared boundary that counts as a border (a corner touch is under 1 px)
COAST_REACH = 130.0  # px: a split coast's seas border the province within this distance of its point
COAST_APART = 30.0  # px: two coasts of one province stand at least this far apart


def shared_borders(geom):
    """{(a, b): length} of shared boundary between every pair of owners (a < b)."""
    names = sorted(geom)
    out = {}
    for i, a in enumerate(names):
        ga = geom[a]
        for b in names[i + 1:]:
            gb = geom[b]
            if not ga.envelope.buffer(1).intersects(gb.envelope):
                continue
            ln = ga.boundary.intersection(gb.buffer(0.25)).length
            if ln > 0.0:
                out[(a, b)] = ln
    return out


def check(map_path, rules_path):
    import build_map

    provinces, locations, army, fleet = build_map.read_rules(rules_path)
    terrain = {p: t for p, t, _ in provinces}
    d = mapdata.read(map_path)
    geom = {o: g for o, g in d["geom"].items() if not o.startswith("~")}
    prov = lambda loc: loc.split("/")[0]
    adjacent = {tuple(sorted((prov(a), prov(b)))) for a, b in army | fleet}
    straits = {tuple(sorted(s)) for s in d["straits"]}
    borders = shared_borders(geom)
    problems = []
    for pair in sorted(adjacent):
        ln = borders.get(pair, 0.0)
        if pair in straits:
            if ln >= MIN_BORDER:
                problems.append(f"{pair[0]}-{pair[1]} is listed as a strait but shares {ln:.1f} px of border")
        elif ln < MIN_BORDER:
            problems.append(f"{pair[0]}-{pair[1]} are adjacent but share only {ln:.1f} px of border")
    for pair, ln in sorted(borders.items()):
        if pair in adjacent or ln < MIN_BORDER:
            continue
        if "impassable" in (terrain.get(pair[0]), terrain.get(pair[1])):
            continue
        problems.append(f"{pair[0]}-{pair[1]} are not adjacent but share {ln:.1f} px of border")
    for s in straits:
        if s not in adjacent:
            problems.append(f"strait {s[0]}-{s[1]} is not an adjacency")
    # Split coasts.
    by_prov = {}
    for loc in locations:
        if "/" in loc:
            by_prov.setdefault(prov(loc), []).append(loc)
    for p, coasts in by_prov.items():
        seas = [s for s, t, _ in provinces if t == "sea" and tuple(sorted((p, s))) in borders]
        lines = {s: geom[p].boundary.intersection(geom[s].buffer(0.25)) for s in seas}
        for c in coasts:
            u = Point(d["unit"][c])
            reach = {b for a, b in fleet if a == c} & set(seas)
            nearest = min(seas, key=lambda s: lines[s].distance(u))
            if nearest not in reach:
                problems.append(f"{c}: nearest sea border is {nearest}, which {c} does not reach")
            for s in reach:
                dist = lines[s].distance(u)
                if dist > COAST_REACH:
                    problems.append(f"{c}: border with {s} is {dist:.0f} px from the coast's point")
            if not geom[p].buffer(12).contains(u):
                problems.append(f"{c}: unit point is not on {p}")
        for i, a in enumerate(coasts):
            for b in coasts[i + 1:]:
                dist = Point(d["unit"][a]).distance(Point(d["unit"][b]))
                if dist < COAST_APART:
                    problems.append(f"{a} and {b} stand {dist:.0f} px apart")
    w, h = d["canvas"]
    for p, t, _ in provinces:
        if t == "sea":
            continue
        x0, y0, x1, y1 = geom[p].bounds
        if x0 < 2 or y0 < 2 or x1 > w - 2 or y1 > h - 2:
            problems.append(f"{p} is cut at the canvas edge")
    for p, _, _ in provinces:
        if p not in d["unit"] or not geom[p].contains(Point(d["unit"][p])):
            problems.append(f"{p}: unit point missing or outside the province")
    for p, at in d["sc"].items():
        if not geom[p].contains(Point(at)):
            problems.append(f"{p}: supply-centre point outside the province")
    for p, at in d["dislodged"].items():
        if not geom[p].contains(Point(at)):
            problems.append(f"{p}: dislodged point outside the province")
    for p, at in d["label"].items():
        if not geom[p].contains(Point(at)):
            problems.append(f"{p}: label point outside the province")
    for pr in problems:
        print("BORDER:", pr)
    n_strait = len(straits)
    print(f"border check: {len(adjacent)} adjacent pairs, {n_strait} straits, {len(problems)} problems")
    return not problems


if __name__ == "__main__":
    sys.exit(0 if check(sys.argv[1], sys.argv[2]) else 1)
