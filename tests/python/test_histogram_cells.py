"""Histograms with uneven bin edges against NumPy: the cell table that bounds each value's search
(src/ops/search.c, build_hist_table / hist_bin) must give NumPy's bins exactly wherever the cell
arithmetic rounds: values exactly on edges and next to them, equal edges, tiny bins among wide
ones, the last edge (inclusive), NaN and infinities (dropped), float32 and float64 data and edges,
non-contiguous data, enough values for the per-chunk counts of several threads."""
import numpy as np
import pytest

import numgpu as ng
from helpers import assert_same, dtype_id


def _edges_cases():
    rng = np.random.default_rng(7)
    yield "normal300", np.sort(rng.standard_normal(300)) * 1.5
    yield "equal", np.array([-2.0, -1.0, -1.0, -1.0, 0.0, 0.0, 0.5, 3.0, 3.0])
    # a cluster of tiny bins inside a few wide ones: many edges share one cell
    tiny = 0.25 + np.arange(200) * 1e-12
    yield "tiny", np.concatenate([[-1e3, -10.0], tiny, [7.0, 1e3]])
    yield "two", np.array([0.0, 1.0])
    yield "ulp", None   # bins one ulp wide around 1.0 (_ulp_edges)
    yield "huge", np.array([-1.7e308, -1.0, 0.0, 1e-300, 1.0, 1.7e308])
    yield "lasttwo_equal", np.array([0.0, 1.0, 2.0, 2.0])


EDGES = dict(_edges_cases())


def _ulp_edges(dt):
    """Seven edges one ulp apart around 1.0, and 3.0, in dtype dt."""
    e = [dt(1)]
    for _ in range(3):
        e.insert(0, np.nextafter(e[0], dt(0)))
        e.append(np.nextafter(e[-1], dt(2)))
    return np.array(e + [dt(3)], dtype=dt)


def _values(edges, n, seed):
    """Random values over the edges' span, every edge, its neighbours, NaN, +-inf, -0.0."""
    rng = np.random.default_rng(seed)
    lo, hi = edges[0], edges[-1]
    with np.errstate(over="ignore"):
        span = np.clip(hi - lo, 0, 1e300)
    x = lo + rng.random(n) * span * 1.2 - span * 0.1 if np.isfinite(span) else rng.standard_normal(n) * 1e300
    near = np.concatenate([edges, np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf)])
    x[: near.size * 3: 3] = near[: len(x[: near.size * 3: 3])]
    x[1::97] = np.nan
    x[2::89] = np.inf
    x[4::83] = -np.inf
    x[5::79] = -0.0
    return x


@pytest.mark.parametrize("name", sorted(EDGES))
@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=dtype_id)
@pytest.mark.parametrize("n", [0, 1, 700, 150000])
def test_histogram_uneven_edges(name, dt, n):
    edges = _ulp_edges(dt) if name == "ulp" else EDGES[name].astype(dt)
    if dt == np.float32 and name == "huge":
        edges = np.array([-3e38, -1.0, 0.0, 1e-30, 1.0, 3e38], dtype=dt)
    with np.errstate(over="ignore"):
        x = _values(edges.astype(np.float64), max(n, 1), seed=n)[:n].astype(dt)
    got = ng.histogram(ng.asarray(x), bins=ng.asarray(edges))
    assert_same(tuple(got), tuple(np.histogram(x, bins=edges)))
    # float32 values with float64 edges (compared in float64, NumPy's promotion)
    x32 = x.astype(np.float32)
    e64 = edges.astype(np.float64)
    assert_same(tuple(ng.histogram(ng.asarray(x32), bins=ng.asarray(e64))), tuple(np.histogram(x32, bins=e64)))


@pytest.mark.parametrize("dt", [np.float64, np.float32], ids=dtype_id)
def test_histogram_uneven_noncontiguous_weights_density(dt):
    edges = EDGES["normal300"].astype(dt)
    x = _values(edges.astype(np.float64), 60000, seed=3).astype(dt)
    xs = x.reshape(200, 300)[:, ::-3]           # a non-contiguous view
    gx = ng.asarray(x).reshape(200, 300)[:, ::-3]
    ge = ng.asarray(edges)
    assert_same(tuple(ng.histogram(gx, bins=ge)), tuple(np.histogram(xs, bins=edges)))
    # strided edges
    e2 = np.repeat(edges, 2)
    assert_same(tuple(ng.histogram(gx, bins=ng.asarray(e2)[::2])), tuple(np.histogram(xs, bins=e2[::2])))
    w = np.random.default_rng(4).random(xs.shape)
    assert_same(tuple(ng.histogram(gx, bins=ge, weights=ng.asarray(w))), tuple(np.histogram(xs, bins=edges, weights=w)),
                rtol=1e-9)
    assert_same(tuple(ng.histogram(gx, bins=ge, density=True)), tuple(np.histogram(xs, bins=edges, density=True)),
                rtol=1e-6)


@pytest.mark.parametrize("dt", [np.int32, np.int64, np.uint8], ids=dtype_id)
def test_histogram_uneven_int_data(dt):
    # integer data against float edges (bins compared in float64): values on the edges
    x = np.arange(-50, 250).astype(dt) if dt != np.uint8 else np.arange(256).astype(dt)
    x = np.tile(x, 200)
    edges = np.array([-7.5, 0, 1, 1, 2, 3.25, 10, 100, 101, 200])
    assert_same(tuple(ng.histogram(ng.asarray(x), bins=ng.asarray(edges))), tuple(np.histogram(x, bins=edges)))
    ie = np.array([0, 3, 3, 9, 200, 255], dtype=np.int64)
    assert_same(tuple(ng.histogram(ng.asarray(x), bins=ng.asarray(ie))), tuple(np.histogram(x, bins=ie)))


def test_histogram_uniform_many_values():
    # the equal-width formula through the per-chunk counts
    x = _values(np.array([-3.0, 3.0]), 200000, seed=11)
    for kw in (dict(bins=100, range=(-3, 3)), dict(bins=7, range=(-1, 2)), dict(bins=1, range=(0, 1))):
        assert_same(tuple(ng.histogram(ng.asarray(x), **kw)), tuple(np.histogram(x, **kw)))
    x32 = x.astype(np.float32)
    x32 = x32[np.isfinite(x32)]
    assert_same(tuple(ng.histogram(ng.asarray(x32), bins=33)), tuple(np.histogram(x32, bins=33)), rtol=1e-6)
