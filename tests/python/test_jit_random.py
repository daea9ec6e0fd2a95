"""Random numbers drawn inside a compiled loop (`random.random()`, `random.uniform(a, b)`,
`random.gauss()`, `random.randint(a, b)`, `np.random.random()`, `np.random.normal(loc, scale)`,
`np.random.randint(n)`, a Generator's `rng.integers(lo, hi)`, ...): each iteration's from a
counter-based generator (Philox4x32-10 at counter (the outer loop's variable, the draws the
iteration made before), under a key the launch draws from the generator the call names). Not
Python's numbers, so the tests compute the expected ones with a reference Philox written here
(exactly, for uniforms and integers; normals within a few ulps of libm: each block gives two
numbers of a kind, 64 random bits or normals, the second kept for the iteration's next draw of
that kind), and check what users rely on: a seed repeats a run, each call differs, the
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


def pair(key, it, n, kind):
    """Block n of iteration it's two 64-bit words of random bits (kind 0) or Box-Muller's two
    normals (kind 1)."""
    w = block(key, it, n)
    if kind == 0:
        return w[0] << 32 | w[1], w[2] << 32 | w[3]
    a, b = unit(w[0], w[1]), unit(w[2], w[3])
    r, t = math.sqrt(-2.0 * math.log(1.0 - a)), 6.283185307179586 * b
    return r * math.cos(t), r * math.sin(t)


class Iteration:
    """The numbers iteration `it` draws, in order: a block per two numbers of one kind and key
    (the second kept for the next draw of that kind and key), the blocks counted in order."""

    def __init__(self, it):
        self.it, self.n, self.spare = it, 0, {}

    def next(self, key, kind):
        if (key, kind) in self.spare:
            return self.spare.pop((key, kind))
        a, self.spare[key, kind] = pair(key, self.it, self.n, kind)
        self.n += 1
        return a

    def draw(self, key, kind):
        """A uniform in [0, 1) (kind 0: 53 of the 64 bits) or a normal (kind 1)."""
        x = self.next(key, kind)
        return unit(x >> 32, x & M32) if kind == 0 else x

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
    assert "calls np.random.random (not compilable)" in g.loop_report()[0]["reason"], g.loop_report()
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
