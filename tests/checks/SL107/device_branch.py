"""SL107 (opt-in): device values in Python control flow (`if`), in an rrule pullback."""
import numpy as np


def rrule_safe_normalize(x):
    y = np.linalg.norm(x)

    def safe_normalize_pullback(dy):
        if y == 0:  # expect-sl107: SL107
            return (np.zeros_like(x),)
        if np.any(x < 0):  # expect-sl107: SL107
            dy = dy * 1.0
        if x.shape[0] > 1:  # a shape test: not a finding
            dy = dy * 1.0
        return (x / y * dy,)

    return x / y, safe_normalize_pullback
