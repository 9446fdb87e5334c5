"""SL107 host-sync: reported only when selected (see test_corpus.py)."""
import numpy as np


def rrule_normalize(x):
    y = np.linalg.norm(x)

    def pullback(dy):
        if y == 0:  # expect-sl107: SL107
            return (np.zeros_like(x),)
        k = int(np.argmax(x))  # expect-sl107: SL107
        return (x / y * dy + k,)

    return x / y, pullback
