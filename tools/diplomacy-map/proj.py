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
