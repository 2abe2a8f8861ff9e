"""Lambert conformal conic projection of lon/lat onto the board canvas."""

import math

LON0, LAT0, LAT1, LAT2 = 15.0, 52.0, 40.0, 62.0


def _t(phi):
    return math.tan(math.pi / 4 + math.radians(phi) / 2)


_N = math.log(math.cos(math.radians(LAT1)) / math.cos(math.radians(LAT2))) / math.log(_t(LAT2) / _t(LAT1))
_F = math.cos(math.radians(LAT1)) * _t(LAT1) ** _N / _N
_RHO0 = _F / _t(LAT0) ** _N


def lcc(lon, lat):
    """Unit-sphere LCC coordinates, y up."""
    rho = _F / _t(lat) ** _N
    th = _N * math.radians(lon - LON0)
    return rho * math.sin(th), _RHO0 - rho * math.cos(th)


# Like the classic board, the crowded west and centre (Britain, the Low
# Countries, Germany) are drawn larger than Russia and the far north: a radial
# lens around LENS_CENTRE magnifies by 1 + LENS_K at its centre, fading out
# with distance (a smooth, one-to-one map, so borders stay borders).
LENS_CENTRE = (6.0, 50.0)
LENS_K = 0.55
LENS_R = 0.35


def lens(x, y):
    """The lens applied to LCC coordinates."""
    cx, cy = lcc(*LENS_CENTRE)
    dx, dy = x - cx, y - cy
    r = math.hypot(dx, dy)
    f = (1 + LENS_K) / (1 + LENS_K * r / LENS_R)
    return cx + dx * f, cy + dy * f
