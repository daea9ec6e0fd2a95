"""Reductions along an axis before a part's last, stored (`out[i] = np.sum(X[i], axis=0)`,
k-means' update `C[k] = X[labels == k].mean(axis=0)`), compared against plain Python running
NumPy on the same data.

Each column's reduction is a loop over the rows; the compiled loop takes a block of 32 columns
at once, each reduction going over the rows once with the block's columns inside (the rows read
along, not across). Each column's elements are taken in NumPy's order all the same, so the
results are NumPy's bit for bit: the tests below use parts wider than a block (several blocks,
the last one partial) and every reduction along the first axis."""
import numpy as np
import pytest

import numgpu
from helpers import jit_same, outcome, parts, python_and_jit, store_each
from test_jit_masks import centres


def kinds(f):
    return [(r["kind"], r.get("ran")) for r in f.loop_report()]


ALONG_FIRST = [
    "np.sum(X[i], axis=0)", "X[i].sum(axis=-2)", "np.prod(X[i] * 0.5 + 0.75, axis=0)", "np.mean(X[i], axis=0)",
    "np.max(X[i], axis=0)", "np.amin(X[i], axis=0)", "np.argmax(X[i], axis=0)", "X[i].argmin(axis=0)",
    "np.any(X[i] > 1, axis=0)", "np.all(X[i] > -2, axis=0)", "np.count_nonzero(X[i] > 0, axis=0)",
    "np.var(X[i], axis=0)", "np.std(X[i], axis=0, ddof=1)", "np.ptp(X[i], axis=0)", "np.nansum(X[i], axis=0)",
    "np.nanmax(X[i], axis=0)", "np.nanmean(X[i], axis=0)", "np.linalg.norm(X[i], axis=0)",
    "np.linalg.norm(X[i], 1, 0)", "np.max(X[i], axis=0) - np.min(X[i], axis=0) + np.sum(X[i], axis=0)",
    "np.sum(X[i] * X[i], axis=0) / X.shape[1]", "np.sum(np.abs(X[i] - X[0]), axis=0)",
    "np.sum(X[i][1:], axis=0)", "np.sum(X[i][:, 3:], axis=0)", "np.mean(X[i], axis=0) * np.max(X[0], axis=0)",
]


@pytest.mark.parametrize("width", [33, 70], ids=["33", "70"])
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int8])
@pytest.mark.parametrize("j", range(len(ALONG_FIRST)))
def test_each_reduction_along_the_first_axis_of_wide_parts(tmp_path, j, dt, width):
    what = ALONG_FIRST[j]
    X = parts(np.random.default_rng(40 + j), dt, (4, 9, width))
    if dt in (np.float64, np.float32):
        X[1, 2, 40 % width] = X[3, 0, 0] = np.nan  # (NaNs: NumPy's, and skipped by the nan-functions)
    fn, want = store_each(tmp_path, f"cols{j}", what, X)
    with np.errstate(all="ignore"):
        f = jit_same(fn, X, np.zeros_like(want))
    assert kinds(f) == [("parallel", "kernel")], f.loop_report()


def sums_of_parts(P, out):
    for i in range(P.shape[0]):
        out[i] = np.sum(P[i], axis=0) * 2 - P[i].max(axis=0)


def sums_along_middle(P, out):
    for i in range(P.shape[0]):
        out[i] = np.sum(P[i], axis=1) * 2 - P[i].min(axis=1)


def test_parts_of_three_axes():
    """A part of three axes reduced along its first or second axis: a block of each row's last
    axis at once (the store's loop over its other axis outside)."""
    rng = np.random.default_rng(7)
    for dt in (np.float64, np.int32):
        P = parts(rng, dt, (3, 5, 4, 45))
        assert kinds(jit_same(sums_of_parts, P, np.zeros((3, 4, 45), dt))) == [("parallel", "kernel")]
        assert kinds(jit_same(sums_along_middle, P, np.zeros((3, 5, 45), dt))) == [("parallel", "kernel")]


def spreads(X, labels, out):
    for k in range(out.shape[0]):
        out[k] = np.max(X[labels == k], axis=0) - X[labels == k].min(axis=0) + np.std(X[labels == k], axis=0)


@pytest.mark.parametrize("width", [2, 8, 32, 70])
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64])
def test_kmeans_update_of_wide_points(width, dt):
    rng = np.random.default_rng(width)
    X = parts(rng, dt, (500, width))
    labels = rng.integers(0, 6, 500)
    labels[labels == 5] = 4  # (centre 5: no point, its mean NaN as NumPy's)
    with np.errstate(all="ignore"):
        f = jit_same(centres, X, labels, np.zeros((6, width)), np.zeros(6, np.int64))
    assert kinds(f) == [("parallel", "kernel")], f.loop_report()
    labels[labels == 4] = 3
    f = jit_same(spreads, X, labels, np.zeros((4, width)))
    assert kinds(f) == [("parallel", "kernel")], f.loop_report()


def maxima(X, labels, out):
    for k in range(out.shape[0]):
        out[k] = np.max(X[labels == k], axis=0) + np.sum(X[labels == k], axis=0)


def test_max_of_no_point_raises_as_numpy():
    """np.max along the first axis of no row: NumPy's ValueError, after the loop ran (a parallel
    kernel) or where it stops (a sequential one: the rows before it stored, none after)."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((200, 40))
    labels = rng.integers(0, 4, 200)
    labels[labels == 2] = 1
    want, got, f = python_and_jit(maxima, X, labels, np.zeros((4, 40)))
    assert want[0] is ValueError and got == want, (got, want)
    assert kinds(f) == [("parallel", "kernel (raised)")]
    f = numgpu.jit(running_spreads)
    want, got = outcome(running_spreads, X, labels, np.zeros((4, 40)), np.zeros(1)), outcome(
        f, X, labels, np.zeros((4, 40)), np.zeros(1))
    assert want[0] is ValueError and got[0] is ValueError and got[1].endswith(want[1]), (got, want)
    np.testing.assert_array_equal(got[2][2], want[2][2])  # (rows 0 and 1 stored, 2 and 3 not)
    assert kinds(f) == [("sequential", "kernel (raised)")], f.loop_report()


def running_spreads(X, labels, out, total):
    t = 0.0
    for k in range(out.shape[0]):
        t = t * 0.5 + k
        out[k] = np.max(X[labels == k], axis=0) - t
    total[0] = t


def test_a_sequential_loop_stores_each_block():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((300, 50))
    labels = rng.integers(0, 4, 300)
    f = jit_same(running_spreads, X, labels, np.zeros((4, 50)), np.zeros(1))
    assert kinds(f) == [("sequential", "kernel (one thread)")], f.loop_report()


def standardise(X, out):
    for i in range(X.shape[0]):
        out[i] = (X[i] - X[i].mean(axis=0)) / X[i].std(axis=0)


def test_a_reduction_read_at_each_element():
    """(X[i] - X[i].mean(axis=0)) / X[i].std(axis=0): the two reductions made for a block of
    columns, then each element of the block's columns in every row."""
    X = parts(np.random.default_rng(5), np.float64, (3, 20, 37))
    assert kinds(jit_same(standardise, X, np.zeros_like(X))) == [("parallel", "kernel")]
