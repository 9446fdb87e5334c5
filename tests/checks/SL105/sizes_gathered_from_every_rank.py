"""SL105: sizes gathered from every rank into a list the rule made empty.

`all_gather(num_tokens, paddle.to_tensor(n))` fills `num_tokens` with one 0-d tensor per rank,
each holding a host number; allocating with one of them as a size reads it back (a sync per
allocation), in the forward and in the backward that reads the list from `ctx`; the finding
is on the size, wherever the call's other lines are. A list
gathered from whole arrays holds arrays (a size of one of those is no element), and an empty
list nothing fills stays a list.
"""
import paddle
import paddle.distributed as dist


class GatherTokens(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, hidden, world_size):
        num_tokens = []
        dist.all_gather(num_tokens, paddle.to_tensor(hidden.shape[0], dtype="int32"))
        ctx.num_tokens = num_tokens
        rows = []
        dist.all_gather(rows, hidden)
        names = []
        for rank in range(world_size):
            received = paddle.empty(
                [num_tokens[rank], hidden.shape[-1]],  # expect: SL105
                dtype=hidden.dtype,
            )
            names.append(rows[rank].shape[0])
        return hidden

    @staticmethod
    def backward(ctx, grad):
        for rank in range(len(ctx.num_tokens)):
            part = paddle.zeros([ctx.num_tokens[rank]])  # expect: SL105
        return grad, None
