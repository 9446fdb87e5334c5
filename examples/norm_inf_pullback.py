"""The ChainRules norm(x, Inf) pullback from the seed report, ported to Python as written.

Run ``scalarlint check examples/norm_inf_pullback.py`` to see what a GPU would choke on,
and ``scalarlint check --fix --unsafe-fixes --diff examples/norm_inf_pullback.py`` for the
rewrite. The GPU-safe version lives in ``scalarlint.rules`` (``RULES["norm"]``).
"""

from array_api_compat import array_namespace


def _norm_inf_back(x, y, dy):
    """Put the cotangent on the LAST index whose magnitude equals the norm."""
    xp = array_namespace(x)
    yind = -1
    for i in range(len(x)):  # findlast: one kernel launch and one sync per element
        if abs(x[i]) == y:
            yind = i
    dx = xp.zeros_like(x)
    dx[yind] = xp.sign(x[yind]) * dy
    return dx


def rrule_norm_inf(x):
    xp = array_namespace(x)
    y = xp.max(xp.abs(x))

    def pullback(dy):
        return (_norm_inf_back(x, y, dy),)

    return y, pullback
