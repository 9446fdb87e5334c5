"""thinc-style forward returning a backprop closure."""


def forward(model, X, is_train):
    xp = model.ops.xp
    Y = xp.maximum(X, 0)

    def backprop(dY):
        dX = dY * (Y > 0)
        for i in range(len(dY)):  # expect: SL104
            if dY[i] > 1e3:  # expect: SL101 SL105
                dX = dX * 0.5
        nz = xp.nonzero(dX)  # expect: SL106
        return dX

    return Y, backprop


def list_forward(model, Xs, is_train):
    def backprop(dYs):
        dXs = []
        for dY in dYs:  # thinc's plural names are lists of arrays
            dXs.append(model.ops.alloc2f(dY.shape[0], dY.shape[1] + 1))
        return dXs

    return Xs, backprop
