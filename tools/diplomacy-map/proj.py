"""Lambert conformal conic projection of lon/lat onto a board canvas, with an optional lens."""

import math


def _t(phi):
    return math.tan(math.pi / 4 + math.radians(phi) / 2)


class Projection:
    """A Lambert conformal conic projection (unit sphere, y up) centred on lon0/lat0 with
    standard parallels lat1 and lat2, optionally followed by a radial lens.

    The lens magnifies by 1 + lens_k at lens_centre (lon, lat), fading out with
    distance (lens_r in projected units): a smooth, one-to-one map, so borders stay borders.
    A "hyperbolic" lens (the standard board's) keeps shrinking what lies far
    away; a "gaussian" one fades out to no change at all (lens_k < 2 keeps it one-to-one).
    """

    def __init__(self, lon0, lat0, lat1, lat2, lens_centre=None, lens_k=0.0, lens_r=1.0, lens_kind="hyperbolic"):
        self.lon0 = lon0
        self.n = math.log(math.cos(math.radians(lat1)) / math.cos(math.radians(lat2))) / math.log(_t(lat2) / _t(lat1))
        self.f = math.cos(math.radians(lat1)) * _t(lat1) ** self.n / self.n
        self.rho0 = self.f / _t(lat0) ** self.n
        self.lens_k = lens_k
        self.lens_r = lens_r
        self.lens_kind = lens_kind
        self.lens_at = self.lcc(*lens_centre) if lens_centre else None

    def lcc(self, lon, lat):
        """Unit-sphere LCC coordinates, y up."""
        rho = self.f / _t(lat) ** self.n
        th = self.n * math.radians(lon - self.lon0)
        return rho * math.sin(th), self.rho0 - rho * math.cos(th)

    def lens(self, x, y):
        """The lens applied to LCC coordinates (the identity without a lens)."""
        if self.lens_at is None:
            return x, y
        cx, cy = self.lens_at
        dx, dy = x - cx, y - cy
        r = math.hypot(dx, dy)
        if self.lens_kind == "gaussian":
            f = 1 + self.lens_k * math.exp(-((r / self.lens_r) ** 2))
        else:
            f = (1 + self.lens_k) / (1 + self.lens_k * r / self.lens_r)
        return cx + dx * f, cy + dy * f

    def xy(self, lon, lat):
        """Projected coordinates of a lon/lat point."""
        return self.lens(*self.lcc(lon, lat))


# The standard board: centred on 15E 52N, parallels 40N and 62N. Like the
# classic board, the crowded west and centre (Britain, the Low Countries,
# Germany) are drawn larger than Russia and the far north: a lens around
# 6E 50N magnifies by 1.55 at its centre.
STANDARD = Projection(15.0, 52.0, 40.0, 62.0, lens_centre=(6.0, 50.0), lens_k=0.55, lens_r=0.35)

# The Ancient Mediterranean board: centred on 18E 36N, parallels 30N and 44N.
# A gentle local lens on the Levant coast, where five small provinces crowd
# between the desert and the sea, draws it larger, as the board does.
ANCIENT_MED = Projection(18.0, 36.0, 30.0, 44.0, lens_centre=(35.6, 33.2), lens_k=0.7, lens_r=0.065, lens_kind="gaussian")
