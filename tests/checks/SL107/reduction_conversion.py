"""SL107 (opt-in): one host conversion of a reduction result, in an rrule pullback."""
import numpy as np


def rrule_normalize(x):
    y = np.linalg.norm(x)

    def normalize_pullback(dy):
        k = int(np.argmax(x))  # expect-sl107: SL107
        scale = float(y)  # expect-sl107: SL107
        size = int(x.shape[0])  # int() of a shape: not a finding
        return (x / y * dy * scale + k + size,)

    return x / y, normalize_pullback
