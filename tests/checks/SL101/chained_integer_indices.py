"""SL101: host ints chained on one array (`out_t[4][i]`) read as they would in one subscript
(`out_t[4, i]`): one element when the array shows elsewhere in the function that it has as
many axes as the chain indexes (`out_t.shape[1]`). Nested lists chain ints too
(`m1[i][k]`, blocks of a block matrix): without such evidence a chain is no element, nor is a
tuple of arrays indexed and then indexed again (`grads[0][1]`)."""
import mxnet as mx


def _suppress(out_t, threshold):
    count = out_t.shape[1]
    order = mx.nd.argsort(out_t[1], is_ascend=0).asnumpy()[:count]  # expect: SL105
    kept = []
    for ii in order:  # expect: SL104
        i = int(ii)
        width = mx.nd.minimum(out_t[4][i], out_t[4]) - mx.nd.maximum(out_t[2][i], out_t[2])  # expect: SL101 SL101
        kept.append(width > threshold)
    return kept


def _block_matmul(m1, m2):
    rows, inner = len(m1), len(m2)
    return [[sum(mx.nd.dot(m1[i][k], m2[k][j]) for k in range(inner)) for j in range(len(m2[0]))] for i in range(rows)]


class Suppress(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        masks = _suppress(in_data[0], 0.5)
        blocks = _block_matmul([[in_data[0]]], [[in_data[1]]])
        self.assign(out_data[0], req[0], mx.nd.stack(*masks) + blocks[0][0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        grads = out_grad
        first = grads[0]
        row = first[0]
        self.assign(in_grad[0], req[0], row * 0 + grads[0][1] * 0)
