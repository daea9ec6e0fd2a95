"""numgpu.random: NumPy's streams (identical numbers) and the device Philox generator.

The device generator is checked three ways: against the published
Philox4x32-10 known-answer vectors (Random123's kat_vectors), against a
host reference of how each method maps the stream's words to values, and
statistically (fixed seeds, tolerant bounds). Results must be the same on
every device (cpu vs opencl compared where both exist).
"""
import math

import numpy as np
import pytest

import numgpu as ng
from helpers import data
from numgpu import _core

# Random123 kat_vectors, philox4x32 with 10 rounds: counter words, key words, result words
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


def join(words):
    return sum(int(w) << (32 * i) for i, w in enumerate(words))


def host_words(counter, key, nblocks):
    """The stream's words from the host reference implementation."""
    return np.array([w for j in range(nblocks) for w in _core.philox4x32(counter + j, key)], dtype=np.uint64)


# ---- Philox itself ----------------------------------------------------------------


@pytest.mark.parametrize("ctr,key,expect", KAT)
def test_philox_known_answers_host(ctr, key, expect):
    assert _core.philox4x32(join(ctr), join(key)) == expect


@pytest.mark.parametrize("ctr,key,expect", KAT)
def test_philox_known_answers_device(ctr, key, expect):
    words = ng.random.Philox(key=join(key), counter=join(ctr)).random_raw(4)
    assert isinstance(words, ng.ndarray) and words.dtype == np.uint32
    assert words.get().tolist() == list(expect)
    # the words form given as arrays of uint32
    bg = ng.random.Philox(key=np.array(key, dtype=np.uint32), counter=np.array(ctr, dtype=np.uint32))
    assert bg.random_raw(4).get().tolist() == list(expect)


def test_raw_stream_matches_host_and_advances():
    bg = ng.random.Philox(key=0x1234567890ABCDEF, counter=(1 << 64) - 3)  # the low word carries into the high
    first, second = bg.random_raw(24).get(), bg.random_raw(8).get()
    ref = host_words((1 << 64) - 3, 0x1234567890ABCDEF, 8)
    np.testing.assert_array_equal(np.concatenate([first, second]).astype(np.uint64), ref)
    assert bg.counter == (1 << 64) + 5
    assert ng.random.Philox(key=1, counter=(1 << 128) - 1).advance(2).counter == 1


def test_random_maps_words_like_the_reference():
    seed = 77
    raw = ng.random.Philox(seed).random_raw(4 * 50).get().astype(np.uint64)
    g = ng.random.Generator(ng.random.Philox(seed))
    got64 = g.random(100).get()
    w0, w1 = raw[0::2], raw[1::2]
    exp64 = ((w0 >> 5).astype(np.float64) * 67108864.0 + (w1 >> 6)) / 9007199254740992.0
    np.testing.assert_array_equal(got64, exp64)
    got32 = ng.random.Generator(ng.random.Philox(seed)).random(200, dtype=np.float32).get()
    np.testing.assert_array_equal(got32, (raw >> 8).astype(np.float32) * np.float32(2.0 ** -24))


def test_normal_and_exponential_map_words_like_the_reference():
    # Box-Muller on (1 - u1, u2) and -log(1 - u) from the same words, with NumPy's libm as the reference
    seed, n = 78, 20000
    raw = ng.random.Philox(seed).random_raw(2 * n).get().astype(np.uint64)
    k = ((raw[0::2] >> 5) << 26) | (raw[1::2] >> 6)  # 53-bit integers, one per word pair
    u1, u2 = (2.0 ** 53 - k[0::2]) / 2.0 ** 53, k[1::2] / 2.0 ** 53
    r = np.sqrt(-2 * np.log(u1))
    ref = np.empty(n)
    ref[0::2], ref[1::2] = r * np.cos(2 * np.pi * u2), r * np.sin(2 * np.pi * u2)
    z = ng.random.device_rng(seed).standard_normal(n).get()
    np.testing.assert_allclose(z, ref, rtol=0, atol=1e-14)
    e = ng.random.device_rng(seed).standard_exponential(n).get()
    np.testing.assert_allclose(e, -np.log((2.0 ** 53 - k) / 2.0 ** 53), rtol=1e-15, atol=0)
    w = raw >> 8  # float32: 24 bits per word, computed in float64, then rounded
    v1, v2 = (2.0 ** 24 - w[0::2]) / 2.0 ** 24, w[1::2] / 2.0 ** 24
    r32 = np.sqrt(-2 * np.log(v1))
    ref32 = np.empty(2 * n)
    ref32[0::2], ref32[1::2] = r32 * np.cos(2 * np.pi * v2), r32 * np.sin(2 * np.pi * v2)
    z32 = ng.random.device_rng(seed).standard_normal(2 * n, dtype=np.float32).get()
    assert np.abs(z32 - ref32.astype(np.float32)).max() <= 2 * np.spacing(np.float32(8))


def test_same_seed_same_numbers_and_stream_continues():
    a = ng.random.device_rng(5)
    b = ng.random.Generator(ng.random.Philox(5))
    x = np.concatenate([a.random(10).get(), a.random(30).get()])
    np.testing.assert_array_equal(x, b.random(40).get())  # whole blocks: the stream continues exactly
    assert not np.array_equal(ng.random.device_rng(6).random(10).get(), x[:10])
    st = a.bit_generator.state
    y = a.standard_normal(7).get()
    a.bit_generator.state = st
    np.testing.assert_array_equal(a.standard_normal(7).get(), y)


def test_scalars_and_shapes():
    g = ng.random.device_rng(1)
    assert isinstance(g.random(), float)
    assert isinstance(g.standard_normal(), float)
    assert isinstance(g.integers(5), (int, np.integer))
    assert g.random((2, 3)).shape == (2, 3)
    assert g.random(0).shape == (0,)
    assert g.random(()).shape == ()
    assert g.integers(0, 5, size=(4, 0), dtype=np.int8).dtype == np.int8
    out = ng.empty((3, 2))
    assert g.random(out=out) is out


# ---- statistics (fixed seeds, tolerant bounds) ---------------------------------------

N = 200_000
KS_BOUND = 1.95 / math.sqrt(N) * 2  # well beyond the 0.1% critical value (1.95/sqrt(n))


def ks(sample, cdf):
    x = np.sort(sample)
    f = cdf(x)
    n = len(x)
    return max((np.arange(1, n + 1) / n - f).max(), (f - np.arange(n) / n).max())


def normal_cdf(x):
    erf = np.frompyfunc(math.erf, 1, 1)
    return 0.5 * (1 + erf(x / math.sqrt(2)).astype(np.float64))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform_statistics(dtype):
    x = ng.random.device_rng(11).random(N, dtype=dtype).get().astype(np.float64)
    assert x.min() >= 0 and x.max() < 1
    assert abs(x.mean() - 0.5) < 5 / math.sqrt(12 * N)
    assert abs(x.var() - 1 / 12) < 0.003
    assert ks(x, lambda t: t) < KS_BOUND
    # neighbours are uncorrelated
    assert abs(np.corrcoef(x[:-1], x[1:])[0, 1]) < 5 / math.sqrt(N)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_statistics(dtype):
    x = ng.random.device_rng(12).standard_normal(N, dtype=dtype).get().astype(np.float64)
    assert abs(x.mean()) < 5 / math.sqrt(N)
    assert abs(x.var() - 1) < 0.015
    assert abs((x ** 3).mean()) < 0.03 and abs((x ** 4).mean() - 3) < 0.1
    assert ks(x, normal_cdf) < KS_BOUND
    y = ng.random.device_rng(12).normal(3.0, 2.0, size=N).get()
    assert abs(y.mean() - 3) < 0.03 and abs(y.std() - 2) < 0.03


def test_exponential_statistics():
    x = ng.random.device_rng(13).standard_exponential(N).get()
    assert x.min() >= 0 and abs(x.mean() - 1) < 0.015
    assert ks(x, lambda t: 1 - np.exp(-t)) < KS_BOUND
    assert abs(ng.random.device_rng(13).exponential(2.5, size=N).get().mean() - 2.5) < 0.04


def test_uniform_and_normal_parameters():
    g = ng.random.device_rng(14)
    u = g.uniform(-3.0, 5.0, size=N).get()
    assert u.min() >= -3 and u.max() < 5 and abs(u.mean() - 1) < 0.05
    lo = np.array([0.0, 10.0, 100.0])
    v = g.uniform(lo, lo + 1, size=(1000, 3)).get()
    assert ((v >= lo) & (v < lo + 1)).all()
    w = g.normal(ng.asarray(lo), 0.5, size=(4000, 3)).get()
    np.testing.assert_allclose(w.mean(axis=0), lo, atol=0.05)
    assert g.normal(np.zeros(3), 1.0).shape == (3,)
    assert g.uniform(2.0, 2.0, size=3).get().tolist() == [2.0, 2.0, 2.0]


@pytest.mark.parametrize("low,high", [(0, 7), (-5, 5), (10, 11), (0, 1000)])
def test_integers_chi_square(low, high):
    x = ng.random.device_rng(15).integers(low, high, size=N).get()
    assert x.dtype == np.int64 and x.min() == low and x.max() == high - 1
    k = high - low
    counts = np.bincount(x - low, minlength=k)
    exp = N / k
    chi2 = ((counts - exp) ** 2 / exp).sum()
    assert chi2 < k + 6 * math.sqrt(2 * k) + 10


def test_integers_large_ranges():
    g = ng.random.device_rng(16)
    big = 3 << 62  # needs the 64-bit path
    x = g.integers(0, big, size=N, dtype=np.uint64).get()
    assert x.max() < big
    assert abs((x / big).mean() - 0.5) < 0.005
    full = g.integers(-2 ** 63, 2 ** 63, size=1000).get()  # the whole int64 range
    assert full.min() < -2 ** 61 and full.max() > 2 ** 61
    top = g.integers(2 ** 64 - 3, 2 ** 64 - 1, size=100, dtype=np.uint64, endpoint=True).get()
    assert set(top.tolist()) == {2 ** 64 - 3, 2 ** 64 - 2, 2 ** 64 - 1}
    for r in (2 ** 31 + 1, 2 ** 63 + 1):  # about half of all draws rejected: the retry pass runs
        y = g.integers(0, r, size=N, dtype=np.uint64).get()
        assert y.max() < r and abs((y / r).mean() - 0.5) < 0.005 and abs((y / r).var() - 1 / 12) < 0.002
    edge = g.integers(0, 2 ** 32, size=N).get()  # exactly 2^32: the 32-bit path with no rejection
    assert edge.max() < 2 ** 32 and abs(edge.mean() / 2 ** 32 - 0.5) < 0.005


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int16, np.int32, np.int64,
                                   np.uint8, np.uint16, np.uint32, np.uint64])
def test_integers_dtypes(dtype):
    info = (0, 1) if dtype is np.bool_ else (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max))
    x = ng.random.device_rng(17).integers(info[0], info[1], size=5000, dtype=dtype, endpoint=True)
    assert x.dtype == np.dtype(dtype)
    h = x.get()
    span = info[1] - info[0]
    assert h.min() <= info[0] + span // 100 and h.max() >= info[1] - span // 100  # the whole range is used
    lo, hi = (2, 9) if dtype is not np.bool_ else (0, 1)
    y = ng.random.device_rng(17).integers(lo, hi, size=2000, dtype=dtype).get()
    assert y.min() >= lo and y.max() < max(hi, lo + 1)


# ---- permutations and sampling ----------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 64, 1000, 4097])
def test_permutation_is_a_permutation(n):
    p = ng.random.device_rng(20).permutation(n)
    assert p.dtype == np.int64 and p.shape == (n,)
    np.testing.assert_array_equal(np.sort(p.get()), np.arange(n))


def test_permutation_uniform_small():
    # all 24 orders of 4 elements appear about equally often
    g = ng.random.device_rng(21)
    counts = {}
    trials = 2400
    for _ in range(trials):
        key = tuple(g.permutation(4).get().tolist())
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 24
    exp = trials / 24
    chi2 = sum((c - exp) ** 2 / exp for c in counts.values())
    assert chi2 < 23 + 6 * math.sqrt(46) + 10


def test_permutation_positions_uniform():
    # each element lands in each position about equally often (and no fixed point bias)
    g = ng.random.device_rng(22)
    n, trials = 8, 1600
    pos = np.zeros((n, n))
    for _ in range(trials):
        pos[np.arange(n), g.permutation(n).get()] += 1
    exp = trials / n
    chi2 = ((pos - exp) ** 2 / exp).sum()
    assert chi2 < 64 + 6 * math.sqrt(128) + 10
    # large n: the first entries are spread over the whole range
    p = g.permutation(1 << 20).get()
    assert abs(p[:5000].mean() / (1 << 20) - 0.5) < 0.03
    assert abs(np.corrcoef(np.arange(1 << 20), p)[0, 1]) < 0.01


def test_permutation_and_shuffle_of_arrays():
    g = ng.random.device_rng(23)
    a = np.arange(24).reshape(4, 6)
    x = ng.asarray(a)
    p = g.permutation(x)
    assert sorted(map(tuple, p.get().tolist())) == sorted(map(tuple, a.tolist()))
    np.testing.assert_array_equal(x.get(), a)  # a copy
    q = g.permutation(x, axis=1).get()
    np.testing.assert_array_equal(np.sort(q, axis=1), a)
    g.shuffle(x)
    assert sorted(map(tuple, x.get().tolist())) == sorted(map(tuple, a.tolist()))
    y = ng.asarray(a.copy())
    g.shuffle(y, axis=1)
    np.testing.assert_array_equal(np.sort(y.get(), axis=1), a)
    v = ng.asarray(np.arange(10, dtype=np.float32))[::-1]  # a non-contiguous view, shuffled in place
    g.shuffle(v)
    assert sorted(v.get().tolist()) == list(range(10))


def test_choice():
    g = ng.random.device_rng(24)
    x = g.choice(5, size=N).get()
    assert np.abs(np.bincount(x, minlength=5) / N - 0.2).max() < 0.01
    p = [0.1, 0.2, 0.3, 0.4, 0.0]
    y = g.choice(5, size=N, p=p).get()
    np.testing.assert_allclose(np.bincount(y, minlength=5) / N, p, atol=0.01)
    z = g.choice(50, size=20, replace=False).get()
    assert len(set(z.tolist())) == 20 and z.min() >= 0 and z.max() < 50
    w = g.choice(10, size=6, replace=False, p=[0.3, 0.3, 0.1, 0.1, 0.1, 0.1, 0, 0, 0, 0]).get()
    assert len(set(w.tolist())) == 6 and w.max() < 6
    arr = ng.asarray(np.array([[1, 2], [3, 4], [5, 6]]))
    s = g.choice(arr, size=4).get()
    assert s.shape == (4, 2) and all(r in ([1, 2], [3, 4], [5, 6]) for r in s.tolist())
    assert g.choice([1.5, 2.5]) in (1.5, 2.5)
    assert isinstance(g.choice(5), (int, np.integer))
    assert g.choice(5, size=(2, 3)).shape == (2, 3)
    assert g.choice(np.array(3)) in (0, 1, 2)
    assert g.choice([], size=0).shape == (0,)
    assert g.permutation(-1).shape == (0,)  # as numpy.arange(-1)


def test_weighted_choice_without_replacement_frequencies():
    # first pick of a weighted sample without replacement follows p
    g = ng.random.device_rng(25)
    p = np.array([0.5, 0.25, 0.125, 0.125])
    first = np.array([g.choice(4, size=2, replace=False, p=p).get()[0] for _ in range(800)])
    np.testing.assert_allclose(np.bincount(first, minlength=4) / 800, p, atol=0.07)


# ---- errors: NumPy's types and messages ----------------------------------------------


def same_error(call):
    """call(rng) raises the same exception type and message on NumPy's Generator and ours."""
    with pytest.raises(Exception) as want:
        call(np.random.default_rng(0))
    with pytest.raises(want.type) as got:
        call(ng.random.device_rng(0))
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("call", [
    lambda g: g.random(size=-1),
    lambda g: g.random(size=(2, -1)),
    lambda g: g.random(size=1.5),
    lambda g: g.random(dtype=np.int64),
    lambda g: g.standard_normal(dtype=np.int32),
    lambda g: g.random(size=4, out=np.empty(3)),
    lambda g: g.integers(5, 5),
    lambda g: g.integers(5, 4, endpoint=True),
    lambda g: g.integers(0),
    lambda g: g.integers(-1, 5, dtype=np.uint8),
    lambda g: g.integers(0, 300, dtype=np.uint8),
    lambda g: g.integers(0, 3, dtype=bool),
    lambda g: g.integers(0, 2 ** 64),
    lambda g: g.integers(0, 5, dtype=np.float64),
    lambda g: g.normal(0, -1),
    lambda g: g.normal(0, -1, size=3),
    lambda g: g.exponential(-1),
    lambda g: g.uniform(1, 0, size=3),
    lambda g: g.uniform(0, np.inf),
    lambda g: g.choice(5, 3, p=[0.5, 0.5, 0, 0, 0.1]),
    lambda g: g.choice(5, 3, p=[0.5, 0.5, 0, 0]),
    lambda g: g.choice(5, 3, p=[1.5, -0.5, 0, 0, 0]),
    lambda g: g.choice(5, 3, p=[np.nan, 0, 0, 0, 1]),
    lambda g: g.choice(5, p=np.ones((5, 1)) / 5),
    lambda g: g.choice(5, 3, replace=False, p=[1, 0, 0, 0, 0]),
    lambda g: g.choice(5, 6, replace=False),
    lambda g: g.choice(0, 1),
    lambda g: g.choice(-1, 1),
    lambda g: g.choice(5.5),
    lambda g: g.choice([]),
    lambda g: g.integers(-1, endpoint=True),
], ids=lambda c: "")
def test_errors_match_numpy(call):
    same_error(call)


def test_errors_of_our_own():
    with pytest.raises(NotImplementedError, match="scalar low and high"):
        ng.random.device_rng(0).integers(np.array([1, 2]), 10)
    with pytest.raises(ValueError, match="seed and key"):
        ng.random.Philox(1, key=2)
    with pytest.raises(ValueError):
        ng.random.Philox(key=1 << 64)


# ---- same numbers on every device -----------------------------------------------------


def draws(seed):
    g = ng.random.device_rng(seed)
    return {
        "raw": ng.random.Philox(seed).random_raw(1001).get(),
        "f64": g.random(1001).get(), "f32": g.random(1001, dtype=np.float32).get(),
        "int": g.integers(-7, 100, size=999).get(), "big": g.integers(0, 3 << 62, size=99, dtype=np.uint64).get(),
        "reject": g.integers(0, 2 ** 31 + 1, size=999).get(),
        "reject64": g.integers(0, 2 ** 63 + 1, size=999, dtype=np.uint64).get(),
        "full": g.integers(0, 2 ** 64, size=9, dtype=np.uint64).get(), "u8": g.integers(0, 256, 33, np.uint8).get(),
        "perm": g.permutation(1001).get(), "choice": g.choice(7, 99, p=np.ones(7) / 7).get(),
        "n64": g.standard_normal(1001).get(), "n32": g.standard_normal(1001, dtype=np.float32).get(),
        "exp": g.standard_exponential(101).get(),
    }


@pytest.mark.skipif(not ng.is_available("opencl") or not ng.is_available("cpu"), reason="needs cpu and opencl")
def test_cpu_and_opencl_give_the_same_numbers():
    with ng.use("cpu"):
        a = draws(99)
    with ng.use("opencl"):
        b = draws(99)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)  # bit for bit, normals included


# ---- NumPy's streams ----------------------------------------------------------------------


def same(got, want):
    if isinstance(want, np.ndarray):
        assert isinstance(got, ng.ndarray)
        got = got.get()
        assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_legacy_functions_give_numpys_numbers():
    for name, args in [("rand", (3, 2)), ("randn", (4,)), ("random", (5,)), ("random_sample", ((2, 2),)),
                       ("randint", (0, 10, 6)), ("uniform", (1, 2, 3)), ("normal", (0, 1, 4)),
                       ("standard_normal", (3,)), ("choice", (10, 4)), ("permutation", (7,)),
                       ("exponential", (1.0, 3)), ("binomial", (10, 0.5, 4)), ("poisson", (3.0, 4))]:
        ng.random.seed(42)
        got = getattr(ng.random, name)(*args)
        np.random.seed(42)
        same(got, getattr(np.random, name)(*args))
    ng.random.seed(1)
    scalar = ng.random.random()
    np.random.seed(1)
    assert scalar == np.random.random()


def test_legacy_shuffle_and_permutation_of_device_arrays():
    a = np.arange(30).reshape(10, 3)
    x = ng.asarray(a)
    ng.random.seed(3)
    ng.random.shuffle(x)
    np.random.seed(3)
    b = a.copy()
    np.random.shuffle(b)
    np.testing.assert_array_equal(x.get(), b)
    ng.random.seed(4)
    p = ng.random.permutation(ng.asarray(a))
    np.random.seed(4)
    same(p, np.random.permutation(a))


def test_default_rng_gives_numpys_numbers():
    g, h = ng.random.default_rng(7), np.random.default_rng(7)
    assert isinstance(g, ng.random.Generator)
    same(g.random(5), h.random(5))
    same(g.standard_normal((2, 3)), h.standard_normal((2, 3)))
    same(g.integers(0, 100, 7), h.integers(0, 100, 7))
    same(g.choice(10, 3, replace=False), h.choice(10, 3, replace=False))
    same(g.permutation(ng.arange(10)), h.permutation(np.arange(10)))
    same(g.normal(ng.asarray([0.0, 10.0]), 1.0), h.normal(np.array([0.0, 10.0]), 1.0))
    x, y = ng.arange(12).reshape(3, 4), np.arange(12).reshape(3, 4)
    g.shuffle(x, axis=1)
    h.shuffle(y, axis=1)
    np.testing.assert_array_equal(x.get(), y)
    assert g.random() == h.random()
    same(ng.random.Generator(np.random.PCG64(3)).random(4), np.random.Generator(np.random.PCG64(3)).random(4))
    same(ng.random.RandomState(5).randint(0, 9, 5), np.random.RandomState(5).randint(0, 9, 5))


def test_generators_are_generators():
    assert isinstance(ng.random.device_rng(0), ng.random.Generator)
    assert isinstance(ng.random.default_rng(ng.random.Philox(0)), ng.random.Generator)
    assert ng.random.default_rng(ng.random.Philox(0)).bit_generator.key == ng.random.Philox(0).key


def test_fallback_for_the_rest():
    ng.random.seed(9)
    got = ng.random.gumbel(size=3)
    np.random.seed(9)
    same(got, np.random.gumbel(size=3))
    f = ng.random.get_bit_generator  # not wrapped by numgpu: served by the fallback
    assert callable(f)
    with pytest.raises(AttributeError):
        ng.random.no_such_function


@pytest.mark.parametrize("dt", [np.float16, np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_float16_and_complex_arrays(dt):
    """Permutations, shuffles and choices of float16/complex arrays: the device generator moves
    whole elements; NumPy's streams give NumPy's own order for the same seed."""
    a = data(dt, (12,), seed=26)
    g = ng.random.device_rng(25)
    p = g.permutation(ng.asarray(a))
    assert p.dtype == a.dtype
    np.testing.assert_array_equal(np.sort(p.get(), axis=0), np.sort(a, axis=0))
    x = ng.asarray(a.copy())
    g.shuffle(x)
    np.testing.assert_array_equal(np.sort(x.get(), axis=0), np.sort(a, axis=0))
    c = g.choice(ng.asarray(a), size=5)
    assert c.dtype == a.dtype and all(v in a.tolist() for v in c.get().tolist())
    h, n = ng.random.default_rng(8), np.random.default_rng(8)
    same(h.permutation(ng.asarray(a)), n.permutation(a))
    same(h.choice(ng.asarray(a), 4), n.choice(a, 4))
    y, z = ng.asarray(a.copy()), a.copy()
    h.shuffle(y)
    n.shuffle(z)
    np.testing.assert_array_equal(y.get(), z)


def test_generators_pickle_and_copy_with_their_streams():
    # unpickling a numgpu Generator raised TypeError (Generator.__new__ needs the bit generator)
    import copy
    import pickle
    for make in (lambda: ng.random.default_rng(3), lambda: ng.random.RandomState(3),
                 lambda: ng.random.Generator(ng.random.Philox(3))):
        g = make()
        g.random(5)                                   # a stream part-way through
        h, c = pickle.loads(pickle.dumps(g)), copy.deepcopy(g)
        assert type(h) is type(g) and type(c) is type(g)
        want = g.random(4).get()                      # the three go on with the same numbers
        np.testing.assert_array_equal(h.random(4).get(), want)
        np.testing.assert_array_equal(c.random(4).get(), want)
        assert not np.array_equal(want, make().random(4).get())


def test_generator_draws_into_out_reach_the_array():
    # rng.random(out=z) and the like fill z (NumPy's draws were written into a downloaded copy: z
    # stayed zeros) and return z itself, as NumPy does
    for method, dt in (("random", np.float64), ("standard_normal", np.float64), ("standard_exponential", np.float32),
                       ("random", np.float32)):
        got, exp = ng.zeros(5, dtype=dt), np.zeros(5, dtype=dt)
        r = getattr(ng.random.default_rng(3), method)(out=got, dtype=dt)
        getattr(np.random.default_rng(3), method)(out=exp, dtype=dt)
        assert r is got
        np.testing.assert_array_equal(ng.asnumpy(got), exp)
    P, Q = ng.asarray(np.arange(12).reshape(3, 4)), np.arange(12).reshape(3, 4)
    ng.random.default_rng(7).permuted(P, axis=1, out=P)
    np.random.default_rng(7).permuted(Q, axis=1, out=Q)
    assert ng.asnumpy(P).tolist() == Q.tolist()
    ro = ng.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        ng.random.default_rng(0).random(out=ro)


def test_numpys_classes_take_numgpus_generators():
    # isinstance(rng, numpy.random.Generator / RandomState) holds (scipy's random_state= takes them)
    # and a library drawing from one gets NumPy's arrays, the same numbers as NumPy's generator
    import numpy.random as npr
    assert isinstance(ng.random.default_rng(0), npr.Generator)
    assert isinstance(ng.random.RandomState(0), npr.RandomState)
    assert isinstance(ng.random.default_rng(0), ng.random.Generator)
    stats = pytest.importorskip("scipy.stats")
    got = stats.norm.rvs(size=4, random_state=ng.random.default_rng(5))
    exp = stats.norm.rvs(size=4, random_state=np.random.default_rng(5))
    assert type(got) is np.ndarray and got.tolist() == exp.tolist()
    got = stats.expon.rvs(size=3, random_state=ng.random.RandomState(2))
    assert got.tolist() == stats.expon.rvs(size=3, random_state=np.random.RandomState(2)).tolist()
