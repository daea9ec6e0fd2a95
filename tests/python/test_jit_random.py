"""Random numbers drawn inside a compiled loop (`random.random()`, `random.uniform(a, b)`,
`random.gauss()`, `random.randint(a, b)`, `np.random.random()`, `np.random.normal(loc, scale)`,
`np.random.randint(n)`, a Generator's `rng.integers(lo, hi)`, ...): each iteration's from a
counter-based generator (Philox4x32-10 at counter (the outer loop's variable, the draws the
iteration made before), under a key the launch draws from the generator the call names). Not
Python's numbers, so the tests compute the expected ones with a reference Philox and ziggurat
written here (exactly, for uniforms, integers and normals but in the ziggurat's tail, within a
few ulps of libm there: each block gives two 64-bit words of a kind, uniforms' and integers' or
normals', the second kept for the iteration's next draw of that kind), and check what users rely
on: a seed repeats a run, each call differs, the
distribution is right, the parameters' errors are Python's and NumPy's, and what cannot be
compiled runs as Python."""
import math
import random

import numpy as np
import pytest

import numgpu

M32 = 0xFFFFFFFF


def philox(ctr, key):
    """Philox4x32-10 of four 32-bit counter words under a 64-bit key."""
    c = list(ctr)
    k0, k1 = key & M32, key >> 32
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k0) & M32, p1 & M32, ((p0 >> 32) ^ c[3] ^ k1) & M32, p0 & M32]
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return c


def unit(a, b):
    return ((a >> 5) * 67108864.0 + (b >> 6)) * 2.0 ** -53


def block(key, it, n):
    it, n = it & (2 ** 64 - 1), n & (2 ** 64 - 1)
    return philox([it & M32, it >> 32, n & M32, n >> 32], key)


def words(key, it, n):
    """Block n of iteration it's two 64-bit words."""
    w = block(key, it, n)
    return w[0] << 32 | w[1], w[2] << 32 | w[3]


ZIG_R, ZIG_V = 3.6541528853610088, 4.92867323399e-3


def ziggurat():
    """The normals' 256 layers of area ZIG_V under exp(-x^2 / 2), the base's edge at ZIG_R
    (Marsaglia and Tsang): the widths X (X[0] the base's, its area over f(R); X[256] = 0) and
    the heights at them F (F[256] = 1)."""
    f = lambda x: math.exp(-0.5 * x * x)  # noqa: E731
    x = [0.0] * 257
    x[0], x[1] = ZIG_V / f(ZIG_R), ZIG_R
    for i in range(1, 255):
        x[i + 1] = math.sqrt(-2.0 * math.log(ZIG_V / x[i] + f(x[i])))
    return x, [f(ZIG_R)] + [f(v) for v in x[1:256]] + [1.0]


ZIG_X, ZIG_F = ziggurat()


def normal(word):
    """A standard normal from the words word() gives: a try takes a word's low 8 bits as its
    layer, bit 8 as its sign, the top 52 as its place across the layer; inside the next
    layer's width it is taken; else the base's tail (two more words at a time) or the wedge
    (one more word: a height under the curve)."""
    while True:
        w = word()
        i, x = w & 255, float(w >> 12) * ZIG_X[w & 255] * 2.0 ** -52
        sign = -1.0 if w & 256 else 1.0
        if x < ZIG_X[i + 1]:
            return sign * x
        if i == 0:
            while True:
                t = -math.log1p(-(word() >> 11) * 2.0 ** -53) / ZIG_R
                if -2.0 * math.log1p(-(word() >> 11) * 2.0 ** -53) > t * t:
                    return sign * (ZIG_R + t)
        u = (word() >> 11) * 2.0 ** -53
        if ZIG_F[i] + u * (ZIG_F[i + 1] - ZIG_F[i]) < math.exp(-0.5 * x * x):
            return sign * x


class Iteration:
    """The numbers iteration `it` draws, in order: a block per two words of one kind and key
    (the second kept for the next draw of that kind and key), the blocks counted in order."""

    def __init__(self, it):
        self.it, self.n, self.spare = it, 0, {}

    def next(self, key, kind):
        if (key, kind) in self.spare:
            return self.spare.pop((key, kind))
        a, self.spare[key, kind] = words(key, self.it, self.n)
        self.n += 1
        return a

    def draw(self, key, kind):
        """A uniform in [0, 1) (kind 0: 53 of the 64 bits) or a normal (kind 1)."""
        if kind == 1:
            return normal(lambda: self.next(key, 1))
        x = self.next(key, 0)
        return unit(x >> 32, x & M32)

    def integer(self, key, low, high):
        """An integer in [low, high): the high half of 64 random bits times high - low."""
        return low + (self.next(key, 0) * (high - low) >> 64)

    def exponential(self, key):
        return -math.log(1.0 - self.draw(key, 0))


def py_key(seed):
    random.seed(seed)
    return random.getrandbits(64)


def np_key(seed):
    np.random.seed(seed)
    return int.from_bytes(np.random.bytes(8), "little")


def ran(f):
    return [loop["ran"] for loop in f.loop_report()]


def seeded(fn, *args, py=None, numpy=None, ran_as="kernel"):
    """fn under @numgpu.jit, called on args after seeding module random with `py` and NumPy's
    generator with `numpy` (None: not seeded); its outer loop must have run as `ran_as`. Returns
    the function and the keys its launch drew from the two (None for one not seeded)."""
    f = numgpu.jit(fn)
    if py is not None:
        random.seed(py)
    if numpy is not None:
        np.random.seed(numpy)
    f(*args)
    assert ran(f)[0] == ran_as, f.loop_report()
    return f, py_key(py) if py is not None else None, np_key(numpy) if numpy is not None else None


def uniforms(out):
    for i in range(out.shape[0]):
        out[i] = random.random()


def three_kinds(lo, out):
    for i in range(out.shape[0]):
        a = random.uniform(lo, 2.0 * lo)
        b = random.gauss(1.0, 0.5)
        c = np.random.random()
        out[i, 0] = a
        out[i, 1] = b
        out[i, 2] = c


def test_each_iteration_draws_from_its_own_counter():
    out = np.zeros(1000)
    f, key, _ = seeded(uniforms, out, py=7)
    assert len(ran(f)) == 1 and f.loop_report()[0]["kind"] == "parallel", f.loop_report()
    assert out.tolist() == [Iteration(i).draw(key, 0) for i in range(1000)]
    again = np.zeros(1000)
    f(again)  # the generator moved on: other numbers
    assert not np.array_equal(again, out)
    random.seed(7)
    f(again)  # seeded again: the same numbers
    np.testing.assert_array_equal(again, out)


def test_modules_and_distributions_with_their_parameters():
    out = np.zeros((500, 3))
    _, kp, kn = seeded(three_kinds, 3.0, out, py=11, numpy=12)
    for i in range(500):
        d = Iteration(i)
        a, b, c = 3.0 + 3.0 * d.draw(kp, 0), 1.0 + 0.5 * d.draw(kp, 1), d.draw(kn, 0)
        assert out[i, 0] == a and out[i, 2] == c
        assert out[i, 1] == pytest.approx(b, rel=1e-13, abs=1e-15)


def rejections(out, tries):
    for i in range(out.shape[0]):
        x = random.random()
        t = 1
        while x < 0.75:  # a while loop's draws: one counter for the iteration
            x = random.random()
            t += 1
        out[i] = x
        tries[i] = t


def test_draws_in_a_while_loop_and_a_sequential_walk():
    out, tries = np.zeros(300), np.zeros(300, np.int64)
    _, key, _ = seeded(rejections, out, tries, py=3)
    for i in range(300):
        d, t = Iteration(i), 1
        x = d.draw(key, 0)
        while x < 0.75:
            x = d.draw(key, 0)
            t += 1
        assert (out[i], tries[i]) == (x, t)
    assert out.min() >= 0.75


def walk(out):
    x = 0.0
    for i in range(out.shape[0]):
        x += np.random.normal(0.0, 2.0)  # carried: one thread, in order
        out[i] = x


def test_a_random_walk_runs_in_order():
    out = np.zeros(200)
    _, _, key = seeded(walk, out, numpy=5, ran_as="kernel (one thread)")
    np.testing.assert_allclose(out, np.cumsum([2.0 * Iteration(i).draw(key, 1) for i in range(200)]), rtol=1e-12)


def monte_carlo_pi(n):
    inside = 0
    for i in range(n):
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


def moments(n, u, z, g):
    for i in range(n):
        u[i] = np.random.uniform(-1.0, 3.0)
        z[i] = np.random.standard_normal()
        g[i] = random.normalvariate(mu=2.0, sigma=0.5)


def test_distributions_and_a_reduction():
    f = numgpu.jit(monte_carlo_pi)
    assert abs(f(1_000_000) - math.pi) < 0.01
    assert f.loop_report()[0]["kind"] == "parallel" and ran(f)[0] == "kernel", f.loop_report()
    n = 200_000
    u, z, g = np.zeros(n), np.zeros(n), np.zeros(n)
    m = numgpu.jit(moments)
    m(n, u, z, g)
    assert ran(m)[0] == "kernel", m.loop_report()
    assert -1.0 <= u.min() and u.max() < 3.0
    assert abs(u.mean() - 1.0) < 0.02 and abs(u.var() - 16 / 12) < 0.02
    assert abs(z.mean()) < 0.01 and abs(z.std() - 1.0) < 0.01
    assert abs(g.mean() - 2.0) < 0.01 and abs(g.std() - 0.5) < 0.01
    # neighbours are independent: no correlation between consecutive iterations' numbers
    assert abs(np.corrcoef(u[:-1], u[1:])[0, 1]) < 0.01


def one_normal(out):
    for i in range(out.shape[0]):
        out[i] = np.random.standard_normal()


def first_words(key, n):
    """The first word of block 0 of iterations 0 .. n-1 (Philox in NumPy's uint64 lanes)."""
    c = [np.arange(n, dtype=np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros(n, np.uint64)]
    k0, k1, m = key & M32, key >> 32, np.uint64(M32)
    for _ in range(10):
        p0, p1 = c[0] * np.uint64(0xD2511F53), c[2] * np.uint64(0xCD9E8D57)
        c = [(p1 >> np.uint64(32)) ^ c[1] ^ np.uint64(k0), p1 & m, (p0 >> np.uint64(32)) ^ c[3] ^ np.uint64(k1), p0 & m]
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return (c[0] << np.uint64(32)) | c[1]


def test_normals_take_every_path_of_the_ziggurat():
    """200,000 normals: those a first try takes (99%) are the reference's bit for bit; the
    wedge's and the tail's (found from the first words) the reference's too, the tail's within
    an ulp or two (its log is the kernel's own, the reference's libm's)."""
    n = 200_000
    out = np.zeros(n)
    _, _, key = seeded(one_normal, out, numpy=5)
    w = first_words(key, n)
    layer = (w & np.uint64(255)).astype(np.int64)
    x = (w >> np.uint64(12)).astype(np.float64) * np.array(ZIG_X)[layer] * 2.0 ** -52
    first = x < np.array(ZIG_X)[layer + 1]
    sign = np.where(w & np.uint64(256), -1.0, 1.0)
    np.testing.assert_array_equal(out[first], (sign * x)[first])
    slow = np.flatnonzero(~first)
    tails = slow[layer[slow] == 0]
    assert 0.005 < slow.size / n < 0.02 and tails.size >= 10, (slow.size, tails.size)
    for i in slow:
        expect = Iteration(int(i)).draw(key, 1)
        if layer[i]:
            assert out[i] == expect, i
        else:
            assert out[i] == pytest.approx(expect, rel=1e-15, abs=0), i
    assert (np.abs(out[tails]) >= ZIG_R).all()  # (a tail's try ends in the tail)


def test_normals_are_normal():
    """A chi-square over 400 bins of equal probability, and the tails beyond 3 and the base's
    edge, of 2,000,000 normals."""
    from statistics import NormalDist
    out = np.zeros(2_000_000)
    seeded(one_normal, out, numpy=9)
    nd = NormalDist()
    edges = [nd.inv_cdf(q) for q in np.linspace(0.0, 1.0, 401)[1:-1]]
    counts = np.bincount(np.searchsorted(edges, out), minlength=400)
    expect = out.size / 400
    chi2 = ((counts - expect) ** 2 / expect).sum()
    assert chi2 < 399 + 5 * math.sqrt(2 * 399), chi2
    for t in (3.0, ZIG_R):
        p = 2 * (1 - nd.cdf(t))
        assert abs((np.abs(out) > t).mean() - p) < 5 * math.sqrt(p / out.size), t


def test_the_kernels_ziggurat_is_the_references():
    """src/ir/ziggurat.h holds the layers the reference computes (tools/ziggurat_tables.py
    writes it)."""
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parents[2] / "src" / "ir" / "ziggurat.h").read_text()
    for name, want in (("ng_zig_x", ZIG_X), ("ng_zig_f", ZIG_F)):
        body = re.search(name + r"\[257\] = \{(.*?)\};", text, re.S).group(1)
        assert [float.fromhex(v) for v in body.replace(",", " ").split()] == want, name
    assert float(re.search(r"#define NG_ZIG_R (\S+)", text).group(1)) == ZIG_R


def nested(out):
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):  # (perfectly nested: counted per iteration of i all the same)
            out[i, j] = random.random()


def test_a_nest_counts_its_draws_per_outer_iteration():
    out = np.zeros((40, 30))
    _, key, _ = seeded(nested, out, py=9)
    its = [Iteration(i) for i in range(40)]
    exp = [[its[i].draw(key, 0) for j in range(30)] for i in range(40)]
    np.testing.assert_array_equal(out, exp)


def rows_times(X, out):
    for i in range(X.shape[0]):
        out[i] = X[i] * np.random.random()


def sized(out):
    for i in range(out.shape[0]):
        out[i] = np.random.random(size=None)


def varying_scale(s, out):
    for i in range(out.shape[0]):
        out[i] = np.random.normal(0.0, s[i])


def fixed_scale(s, out):
    for i in range(out.shape[0]):
        out[i] = np.random.normal(0.0, s)


def test_what_runs_as_python():
    X, out = np.ones((4, 3)), np.zeros((4, 3))
    f = numgpu.jit(rows_times)
    f(X, out)
    assert "random number in an elementwise expression of rows" in ran(f)[0], f.loop_report()
    assert (out[:, 0] == out[:, 1]).all()  # Python's: one number per row
    g = numgpu.jit(sized)
    g(np.zeros(3))
    assert "line %d calls np.random.random (compiled loops do not have it in this form" % (
        sized.__code__.co_firstlineno + 2) in g.loop_report()[0]["reason"], g.loop_report()
    h = numgpu.jit(varying_scale)  # a scale that changes in the loop: checked in each iteration
    h(np.ones(5), np.zeros(5))
    assert ran(h)[0] == "kernel", h.loop_report()
    with pytest.raises(ValueError, match="scale < 0"):
        h(np.array([1.0, 1.0, -1.0, 1.0, 1.0]), np.zeros(5))
    k = numgpu.jit(fixed_scale)
    k(2.0, np.zeros(5))
    assert ran(k)[0] == "kernel", k.loop_report()
    with pytest.raises(ValueError, match="scale < 0"):  # NumPy's own, the loop run as Python
        k(-1.0, np.zeros(5))


def shadowed(random, out):
    for i in range(out.shape[0]):
        out[i] = random.random()


def test_a_name_that_is_not_the_module():
    class Fake:
        @staticmethod
        def random():
            return 0.25
    out = np.zeros(3)
    f = numgpu.jit(shadowed)
    f(Fake(), out)
    assert (out == 0.25).all() and "kernel" not in ran(f)[0], f.loop_report()


def missing(out):
    for i in range(out.shape[0]):
        out[i] = random.uniform(1.0)


def keywords(out):
    for i in range(out.shape[0]):
        out[i] = np.random.normal(scale=2.0, loc=1.0) + random.gauss(sigma=0.5)


def test_arguments_as_pythons():
    f = numgpu.jit(missing)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'b'"):
        f(np.zeros(3))  # (the loop runs as Python, which raises its own)
    assert "missing 1 required positional argument: 'b'" in f.loop_report()[0]["ran"], f.loop_report()
    out = np.zeros(1000)
    _, kp, kn = seeded(keywords, out, py=1, numpy=2)
    for i in (0, 1, 999):
        d = Iteration(i)
        assert out[i] == pytest.approx(1.0 + 2.0 * d.draw(kn, 1) + 0.5 * d.draw(kp, 1), rel=1e-13)


def running(out, counts):
    s = 0.0
    c = 0
    for i in range(out.shape[0]):  # (a scan: in order, never in blocks, when it draws)
        s += random.random()
        out[i] = s
        if random.random() < 0.5:
            c += 1
        counts[i] = c


def test_a_scan_that_draws_runs_in_order(monkeypatch):
    monkeypatch.setenv("NUMGPU_SCAN", "1")  # (every other scan in blocks)
    out, counts = np.zeros(5000), np.zeros(5000, np.int64)
    _, key, _ = seeded(running, out, counts, py=8, ran_as="kernel (one thread)")
    its = [Iteration(i) for i in range(5000)]
    u = np.array([[d.draw(key, 0), d.draw(key, 0)] for d in its])
    np.testing.assert_allclose(out, np.cumsum(u[:, 0]), rtol=1e-12)
    np.testing.assert_array_equal(counts, np.cumsum(u[:, 1] < 0.5))


rnd = random  # (module random under another name)
import numpy.random as npr  # noqa: E402  (numpy.random itself, as a name)


def gen_key(make):
    """The key a launch draws from the generator make() gives: its bytes(8), or getrandbits(64)
    of a random.Random."""
    g = make()
    return g.getrandbits(64) if isinstance(g, random.Random) else int.from_bytes(g.bytes(8), "little")


def integers(out, rng, r, n):
    for i in range(out.shape[0]):
        out[i, 0] = random.randint(1, 6)
        out[i, 1] = np.random.randint(10)
        out[i, 2] = rng.integers(5, 8)
        out[i, 3] = r.randrange(n)
        out[i, 4] = rng.integers(-3, 3, endpoint=True)
        out[i, 5] = npr.randint(-5, high=5)
        out[i, 6] = rnd.randrange(-(2 ** 40), 2 ** 40)
        out[i, 7] = rng.integers(-(2 ** 63), 2 ** 63 - 1, endpoint=True)  # (all 2**64 int64s)


def test_integers_of_every_generator_exactly():
    out = np.zeros((500, 8), np.int64)
    _, kp, kn = seeded(integers, out, np.random.default_rng(4), random.Random(5), 7, py=1, numpy=2)
    kg, kr = gen_key(lambda: np.random.default_rng(4)), gen_key(lambda: random.Random(5))
    # a module under a second name: a key of its own, its generator's next draw after the first name's
    random.seed(1), np.random.seed(2)
    random.getrandbits(64), np.random.bytes(8)
    kp2, kn2 = random.getrandbits(64), int.from_bytes(np.random.bytes(8), "little")
    for i in range(500):
        d = Iteration(i)
        exp = [d.integer(kp, 1, 7), d.integer(kn, 0, 10), d.integer(kg, 5, 8), d.integer(kr, 0, 7),
               d.integer(kg, -3, 4), d.integer(kn2, -5, 5), d.integer(kp2, -(2 ** 40), 2 ** 40)]
        exp.append(-(2 ** 63) + d.next(kg, 0))  # (low plus the bits themselves)
        assert out[i].tolist() == exp, i
    # every value of a small range, evenly
    counts = np.bincount(out[:, 0] - 1)
    assert len(counts) == 6 and counts.min() > 50


def exponentials(n, a, b, c, d, rng):
    for i in range(n):
        a[i] = rng.exponential(2.0)
        b[i] = np.random.standard_exponential()
        c[i] = random.expovariate(0.5)
        d[i] = rng.normal(1.0, 3.0) + rng.standard_normal() * 0.0 + rng.uniform(0.0, 1e-300)


def test_exponentials_and_a_generators_distributions():
    n = 200_000
    a, b, c, d = (np.zeros(n) for _ in range(4))
    f = numgpu.jit(exponentials)
    np.random.seed(3)
    f(n, a, b, c, d, np.random.default_rng(8))
    assert ran(f)[0] == "kernel", f.loop_report()
    kg, kn = gen_key(lambda: np.random.default_rng(8)), np_key(3)
    for i in (0, 1, n - 1):
        it = Iteration(i)
        assert a[i] == pytest.approx(2.0 * it.exponential(kg), rel=1e-14)
        assert b[i] == pytest.approx(it.exponential(kn), rel=1e-14)
    for x, mean in ((a, 2.0), (b, 1.0), (c, 2.0)):
        assert x.min() >= 0.0 and abs(x.mean() - mean) < 0.02 * mean and abs(x.std() - mean) < 0.03 * mean
    assert abs(d.mean() - 1.0) < 0.03 and abs(d.std() - 3.0) < 0.03


def generator_sum(rng, n):
    s = 0
    t = 0.0
    for i in range(n):
        s += rng.integers(3)
        t += rng.random()
    return s, t


def test_a_generator_moves_on_and_its_integers_are_numpys():
    f = numgpu.jit(generator_sum)
    rng = np.random.default_rng(11)
    first, again = f(rng, 1000), f(rng, 1000)
    assert first != again  # the generator moved on
    assert f(np.random.default_rng(11), 1000) == first  # seeded again: the same
    s, t = first
    assert type(s) is type(generator_sum(np.random.default_rng(0), 3)[0])  # np.int64, as NumPy's
    assert type(t) is float and 0 < s < 2000 and 0 < t < 1000
    assert f.loop_report()[0]["kind"] == "parallel", f.loop_report()


def shuffle(x):
    for i in range(x.shape[0] - 1, 0, -1):  # Fisher-Yates: in order, a range that shrinks
        j = random.randint(0, i)
        x[i], x[j] = x[j], x[i]


def test_a_shuffle_in_order():
    x = np.arange(1000)
    _, key, _ = seeded(shuffle, x, py=21, ran_as="kernel (one thread)")
    y = list(range(1000))
    for i in range(999, 0, -1):
        j = Iteration(i).integer(key, 0, i + 1)
        y[i], y[j] = y[j], y[i]
    assert x.tolist() == y


def empty_randint(out):
    for i in range(out.shape[0]):
        out[i] = random.randint(0, i - 3)


def empty_numpy(out):
    for i in range(out.shape[0]):
        out[i] = np.random.randint(i, 3)


def empty_integers(out, rng, highs):
    for i in range(out.shape[0]):
        out[i] = rng.integers(highs[i], endpoint=True)


def bad_scale(out, scales):
    for i in range(out.shape[0]):
        out[i] = np.random.exponential(scales[i])


def zero_rate(out, rates):
    for i in range(out.shape[0]):
        out[i] = random.expovariate(float(rates[i]))  # a Python float: ZeroDivisionError


def wide_range(out, rng, highs):
    for i in range(out.shape[0]):
        out[i] = rng.uniform(0.0, highs[i])


def fixed_empty(out, n):
    for i in range(out.shape[0]):
        out[i] = np.random.randint(n)


@pytest.mark.parametrize("fn, args", [
    (empty_randint, ()),
    (empty_numpy, ()),
    (empty_integers, (np.random.default_rng(1), np.array([2, 0, -1, 3, 3]))),
    (bad_scale, (np.array([1.0, 1.0, -0.5, 1.0, 1.0]),)),
    (zero_rate, (np.array([1.0, 1.0, 0.0, 1.0, 1.0]),)),
    (wide_range, (np.random.default_rng(1), np.array([1.0, np.inf, 1.0, 1.0, 1.0]))),
    (fixed_empty, (0,)),
])
def test_parameters_errors_are_pythons_and_numpys(fn, args):
    with pytest.raises(Exception) as want:
        fn(np.zeros(5), *args)
    f = numgpu.jit(fn)
    with pytest.raises(want.type) as got:
        f(np.zeros(5), *args)
    assert str(want.value).split("(")[0] in str(got.value)  # (Python's randrange() names its arguments too)
    if fn is fixed_empty:  # the same in every iteration: the loop runs as Python instead
        assert "raises ValueError (high <= 0)" in f.loop_report()[0]["ran"], f.loop_report()
    else:
        assert f.loop_report()[0]["ran"] == "kernel (raised)", f.loop_report()


def numpy_rate(out, rates):
    for i in range(out.shape[0]):
        out[i] = random.expovariate(rates[i])  # a NumPy float: NumPy's division, inf


def test_a_numpy_rate_of_zero_divides_as_numpy():
    f = numgpu.jit(numpy_rate)
    out = np.zeros(3)
    with np.errstate(divide="ignore"):
        f(out, np.array([1.0, 0.0, 2.0]))
    assert ran(f)[0] == "kernel" and out[1] == np.inf and np.isfinite(out[[0, 2]]).all(), f.loop_report()


def other_methods(out, rng):
    for i in range(out.shape[0]):
        out[i] = rng.randint(3)  # a Generator has integers(), not randint()


def integer_of_float(out):
    for i in range(out.shape[0]):
        out[i] = random.randint(0, 2.5)


def nine_generators(out, g1, g2, g3, g4, g5, g6, g7):
    for i in range(out.shape[0]):
        out[i] = (g1.random() + g2.random() + g3.random() + g4.random() + g5.random() + g6.random() + g7.random() +
                  random.random() + np.random.random())


def test_calls_that_run_as_python():
    f = numgpu.jit(other_methods)
    with pytest.raises(AttributeError):
        f(np.zeros(3), np.random.default_rng())
    assert "which that generator does not have" in ran(f)[0], f.loop_report()
    g = numgpu.jit(integer_of_float)
    with pytest.raises((ValueError, TypeError)):  # (Python's own: 3.11 ValueError, 3.12 TypeError)
        g(np.zeros(3))
    assert "float64 bound" in ran(g)[0], g.loop_report()
    h = numgpu.jit(nine_generators)
    out = np.zeros(4)
    h(out, *(np.random.default_rng(i) for i in range(7)))
    assert "more than 8 generators" in ran(h)[0] and 0 < out.min() and out.max() < 9, h.loop_report()


def normal_step(g, scale):
    return g.normal(0.0, scale)


def directly(out, rng):
    for i in range(out.shape[0]):
        out[i] = rng.normal(0.0, 2.0) + random.gauss(0.0, 1.0) * 0.0


def helper_draws(out, rng):
    for i in range(out.shape[0]):
        out[i] = normal_step(rng, 2.0)


def test_a_generators_draws_in_a_helper_are_the_callers():
    a, b = np.zeros(100), np.zeros(100)
    f, g = numgpu.jit(helper_draws), numgpu.jit(directly)
    f(a, np.random.default_rng(5))
    random.seed(0)
    g(b, np.random.default_rng(5))
    assert ran(f)[0] == "kernel" and ran(g)[0] == "kernel", (f.loop_report(), g.loop_report())
    np.testing.assert_array_equal(a, b)  # (the helper's draws keyed by the caller's name, rng)


def every_kind(out):
    for i in range(out.shape[0]):
        out[i, 0] = np.random.random()
        out[i, 1] = np.random.standard_normal()
        out[i, 2] = np.random.exponential(2.0)
        out[i, 3] = np.random.randint(0, 1000)
        out[i, 4] = random.gauss(1.0, 3.0)


@pytest.mark.skipif(not numgpu.is_available("opencl"), reason="no OpenCL device")
def test_every_device_draws_the_same_bits():
    """The same seed gives the same numbers on cpu and OpenCL, bit for bit: Philox, the
    ziggurat (tails and wedges among 100,000 normals) and the exponentials' log are made of
    integer and + - * / operations (the wedge's exp only decides a comparison)."""
    got = []
    for device in ("cpu", "opencl"):
        out = np.zeros((100_000, 5))
        with numgpu.use(device):
            f = numgpu.jit(every_kind)
            np.random.seed(17)
            random.seed(18)
            f(out)
            assert ran(f)[0] == "kernel", f.loop_report()
        got.append(out)
    np.testing.assert_array_equal(got[0], got[1])
    assert (np.abs(got[0][:, 1]) > ZIG_R).any()  # (some normals from the tail)
