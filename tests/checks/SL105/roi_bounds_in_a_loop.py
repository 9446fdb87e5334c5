"""SL105 (with SL104): ROI bounds read element by element in a pooling backward.

Each box's corners are read from the device and turned into Python ints once per box: one sync
each. The host-copy fix copies ``rois`` and ``roi_indices`` to the host once before the loop;
the gradient written per box stays on the device (``gy`` is sliced, not read by element).
"""
import chainer
import numpy


class ROIPoolingBackward(chainer.function_node.FunctionNode):
    def backward(self, indexes, grad_outputs):
        rois, roi_indices = self.get_retained_inputs()
        gy, = grad_outputs
        gx = numpy.zeros(self.shape, gy.dtype)
        n_rois = rois.shape[0]  # a shape: not a finding
        for k in range(n_rois):  # expect: SL104
            batch = int(roi_indices[k])  # expect: SL105 SL101
            y0, x0, y1, x1 = rois[k]  # expect: SL104
            y0 = int(round(y0 * self.scale))  # expect: SL105
            x0 = int(round(x0 * self.scale))  # expect: SL105
            y1 = max(int(round(y1 * self.scale)), y0 + 1)  # expect: SL105
            x1 = max(int(round(x1 * self.scale)), x0 + 1)  # expect: SL105
            if y1 <= y0:
                continue
            gx[batch, :, y0:y1, x0:x1] += gy[k, :, None, None] / ((y1 - y0) * (x1 - x0))
        return gx, None, None
