"""SL105: in a module written for MXNet, NumPy is the host: what `np.concatenate` makes of
values the inference cannot type, and what indexing such a host array gives (at any index,
`clss[ind]` with `ind` an entry of `np.where(...)[0]`), stay host data, so `int()` of it is no
sync. The copy that brought the data to the host is the finding."""
import mxnet as mx
import numpy as np

from .boxes import transform


def _expand(targets, num_classes):
    clss = targets[:, 0]
    weights = np.zeros((clss.size, 4 * num_classes))
    for ind in np.where(clss > 0)[0]:
        cls = int(clss[ind])
        weights[ind, 4 * cls:4 * cls + 4] = 1.0
    return weights


class BoxTarget(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        rois = in_data[0].asnumpy()  # expect: SL105
        labels = rois[:, :1]
        targets = np.concatenate([labels, transform(rois)], axis=1)
        self.assign(out_data[0], req[0], mx.nd.array(_expand(targets, 3)))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], 0)
