"""Decoding of TopoJSON (the world-atlas package's format) into shapely geometry."""

from shapely.geometry import MultiPolygon, Polygon
from shapely.ops import unary_union


def _arcs(topo):
    """Absolute lon/lat coordinates of every arc (quantised + delta-encoded in the file)."""
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    out = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        out.append(pts)
    return out


def _ring(arcs, idxs):
    pts = []
    for i in idxs:
        a = arcs[i] if i >= 0 else list(reversed(arcs[~i]))
        pts.extend(a if not pts else a[1:])
    # A ring across the antimeridian (Russia's Chukotka, the Eurasian coast) is
    # made continuous by moving its far-western points east of 180 degrees, so
    # that the planar polygon is the same land as the spherical one.
    if any(x > 100 for x, _ in pts) and any(x < -100 for x, _ in pts):
        pts = [(x + 360 if x < -100 else x, y) for x, y in pts]
    return pts


def geometry(topo, geom, arcs=None):
    """One TopoJSON geometry object as a shapely (Multi)Polygon in lon/lat."""
    arcs = arcs or _arcs(topo)
    polys = []
    if geom["type"] == "Polygon":
        parts = [geom["arcs"]]
    elif geom["type"] == "MultiPolygon":
        parts = geom["arcs"]
    else:
        return MultiPolygon()
    for rings in parts:
        shell = _ring(arcs, rings[0])
        holes = [_ring(arcs, r) for r in rings[1:]]
        p = Polygon(shell, holes)
        if not p.is_valid:
            p = p.buffer(0)
        polys.append(p)
    return unary_union(polys)


def load(topo):
    """(land geometry, {country name: geometry}) from a world-atlas countries file."""
    arcs = _arcs(topo)
    land = unary_union([geometry(topo, g, arcs) for g in topo["objects"]["land"]["geometries"]])
    countries = {}
    for g in topo["objects"]["countries"]["geometries"]:
        name = g.get("properties", {}).get("name")
        if name:
            countries[name] = geometry(topo, g, arcs)
    return land, countries
