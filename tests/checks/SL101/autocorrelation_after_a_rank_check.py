"""SL101: an FFT keeps the number of axes of what it transforms. The function raises unless its
series has one axis, so the autocorrelation computed by `ifft` has one axis too and `acf[0]` is
one element (the normalisation by the lag-0 value)."""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def autocorrelation(x):
    if x.ndim != 1:
        raise ValueError("one series")
    f = jnp.fft.fft(x - jnp.mean(x), n=2 * x.shape[0])
    acf = jnp.fft.ifft(f * jnp.conjugate(f))[: x.shape[0]].real
    acf /= acf[0]  # expect: SL101
    return acf


def autocorrelation_fwd(x):
    return autocorrelation(x), x


def autocorrelation_bwd(x, g):
    spectrum = jnp.fft.rfft(g)
    back = jnp.fft.irfft(spectrum)
    return (back[: x.shape[0]],)


autocorrelation.defvjp(autocorrelation_fwd, autocorrelation_bwd)
