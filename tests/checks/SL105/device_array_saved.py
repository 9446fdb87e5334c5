"""SL105: an array module's writer handed device data.

`jnp.save(path, jnp.cos(x))` in a custom VJP's forward is NumPy's `save`: it copies the array
to the host before writing it, a sync and a transfer on every call. Saving a Python value
(`jnp.save(path, 0.5)`) moves nothing from the device.
"""
import jax
import jax.numpy as jnp

CACHE = "/tmp/cos.npy"


@jax.custom_vjp
def scaled_sin(x, y):
    return jnp.sin(x) * y


def scaled_sin_fwd(x, y):
    jnp.save(CACHE, jnp.cos(x))  # expect: SL105
    jnp.save(CACHE + ".scale", 0.5)
    return scaled_sin(x, y), (jnp.sin(x), y)


def scaled_sin_bwd(res, g):
    sin_x, y = res
    cos_x = jnp.load(CACHE)
    return cos_x * g * y, sin_x * g


scaled_sin.defvjp(scaled_sin_fwd, scaled_sin_bwd)
