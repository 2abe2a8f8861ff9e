#!/usr/bin/env python3
"""A preview PNG of the generated board (province fills, borders, names, anchors), for looking at."""

import sys

from PIL import Image, ImageDraw

import mapdata

SEA, LAND, OFF_LAND, OFF_SEA, IMPASSABLE = "#9fc5e8", "#eee3c4", "#cfc8b0", "#b9cfe0", "#a9a9a9"


def render(map_path, rules_path, out, scale=1.0):
    import build_map

    provinces, _, _, _ = build_map.read_rules(rules_path)
    terrain = {p: t for p, t, _ in provinces}
    d = mapdata.read(map_path)
    w, h = d["canvas"]
    img = Image.new("RGB", (int(w * scale), int(h * scale)), OFF_SEA)
    dr = ImageDraw.Draw(img)
    S = lambda pts: [(x * scale, y * scale) for x, y in pts]
    rings = []
    for owner, rs in d["rings"].items():
        for _, shell, _ in rs:
            t = terrain.get(owner)
            col = {"~land": OFF_LAND, "~sea": OFF_SEA}.get(owner) or (
                SEA if t == "sea" else IMPASSABLE if t == "impassable" else LAND
            )
            area = abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(shell, shell[1:] + shell[:1]))) / 2
            rings.append((area, owner, shell, col))
    # Larger outer rings first: whatever fills a hole is smaller and is drawn over it.
    for _, owner, shell, col in sorted(rings, key=lambda r: -r[0]):
        dr.polygon(S(shell), fill=col)
    for _, owner, shell, col in rings:
        if owner.startswith("~"):
            continue
        edge = "#3d5a80" if terrain.get(owner) == "sea" else "#6b5e4a"
        dr.line(S(shell + shell[:1]), fill=edge, width=1)
    for owner, rs in d["rings"].items():
        for _, _, holes in rs:
            for hl in holes:
                dr.line(S(hl + hl[:1]), fill="#6b5e4a", width=1)
    # Each strait crossing as the map file draws it (coast to coast), and faintly the units it joins.
    for (a, b), ((x0, y0), (x1, y1)) in zip(d["straits"], d["strait_lines"]):
        (u0, v0), (u1, v1) = d["unit"][a], d["unit"][b]
        dr.line([(u0 * scale, v0 * scale), (u1 * scale, v1 * scale)], fill="#e8b0b0", width=1)
        dr.line([(x0 * scale, y0 * scale), (x1 * scale, y1 * scale)], fill="#c03030", width=3)
    for p, (x, y) in d["sc"].items():
        dr.ellipse([(x - 4) * scale, (y - 4) * scale, (x + 4) * scale, (y + 4) * scale], outline="#111", fill="#fff")
    for loc, (x, y) in d["unit"].items():
        r = 3
        dr.rectangle([(x - r) * scale, (y - r) * scale, (x + r) * scale, (y + r) * scale], fill="#c00" if "/" in loc else "#333")
        if "/" in loc:
            dr.text((x * scale + 4, y * scale - 5), loc.split("/")[1], fill="#c00")
    for p, (x, y) in d["label"].items():
        dr.text((x * scale, y * scale), p, fill="#000", anchor="mm")
    img.save(out)


if __name__ == "__main__":
    render(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]) if len(sys.argv) > 4 else 1.0)
