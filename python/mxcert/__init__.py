"""mxcert — certified scale placements for MX (OCP Microscaling) dot products, from Python.

The functions of the ``mxcert`` command, in process, with the same results:

* ``eval(...)``             the reference evaluator (``mxcert eval --json``)
* ``table(...)``            the agree set of two placements as a certificate (``mxcert table --json``)
* ``check(certificate)``    the independent checker's report (``mxcert check --json``)
* ``read_certificate(c)``   a certificate, validated (the reader of ``mxcert check``)
* ``GuardTable(c)``         guard lookup: ``GuardTable(c).agrees(xa, xb)``

Keyword arguments are the command's options with ``_`` for ``-`` (``a_vals`` is ``--a-vals``),
accepting the same values and names (``format="mxfp4"``, ``a="f8E4M3FN"``, ``tree="pairwise"``);
``None`` (or ``False`` for a flag) leaves an option out, ``True`` gives a flag. Results are the
JSON documents the command prints, as dicts, lists, ints, strings and floats.

Bad input raises ``UsageError`` with the message the command prints after ``mxcert: error:``
(exit code 2); a limit reached (a timeout, a resource limit) raises ``Unknown`` (exit 3); both
are ``mxcert.Error``. See docs/python.md.
"""

import json as _json
import os as _os

from . import _mxcert

__version__ = _mxcert.__version__

__all__ = ["Error", "UsageError", "Unknown", "InternalError", "table", "check", "read_certificate",
           "GuardTable"]  # not "eval": `from mxcert import *` would hide the builtin


class Error(Exception):
    """The base class of the errors mxcert raises."""


class UsageError(Error, ValueError):
    """Bad usage or bad input: an unknown or missing option, a bad value, an unknown format, an
    unreadable or invalid certificate. ``str(e)`` is the message ``mxcert`` prints for the same
    input: its stderr line is ``"mxcert: error: " + str(e)`` (exit code 2)."""


class Unknown(Error):
    """No answer: a limit was reached (``timeout``, ``max_terms``, the exhaustive engine's state
    budget, memory). ``mxcert`` prints ``"mxcert: unknown: " + str(e)`` (exit code 3). For an
    incomplete table, ``certificate`` is what was decided (a dict, not a complete certificate)
    and ``details`` the command's lines (the undecided pairs and regions)."""

    certificate = None
    details = ()


class InternalError(Error, RuntimeError):
    """A bug in mxcert (``mxcert: internal error: ...``, exit code 70)."""


_mxcert._set_exception_types(Error, UsageError, Unknown, InternalError)

# How list values are joined into the command's syntax (others: with spaces).
_JOIN = {"placements": ",", "xa": "..", "xb": ".."}


def _word(value):
    """One value as the command line writes it (floats exactly: repr)."""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _options(**options):
    """The command-line arguments of keyword arguments: ``name=value`` is ``--name=value``
    (``_`` written ``-``), ``True`` a flag, ``None`` and ``False`` nothing; a list or tuple is
    joined as the option expects (``placements`` with commas, ``xa``/``xb`` ``(lo, hi)`` as
    ``lo..hi``, element values with spaces)."""
    args = []
    for name, value in options.items():
        if value is None or value is False:
            continue
        opt = "--" + name.replace("_", "-")
        if value is True:
            args.append(opt)
        elif isinstance(value, (list, tuple)):
            args.append(opt + "=" + _JOIN.get(name, " ").join(_word(v) for v in value))
        else:
            args.append(opt + "=" + _word(value))
    return args


def _source(certificate):
    """(path, None) for a file name, (None, JSON text) for a dict."""
    if isinstance(certificate, dict):
        return None, _json.dumps(certificate)
    if isinstance(certificate, (str, bytes, _os.PathLike)):
        return _os.fsdecode(certificate), None
    raise TypeError("expected a file name or a dict, not %s" % type(certificate).__name__)


def eval(*, xa=None, xb=None, a_vals=None, b_vals=None, placements=None, relation=None, **config):
    """Evaluates placements with the reference evaluator (exact integer semantics, spec §5).

    Returns what ``mxcert eval --json`` prints: ``{"config", "relation", "a", "b", "results"}``,
    one result per code pair ``{"xa", "xb", "e", "values": {placement: {"value", "bits"}},
    "related": {"p~q": bool}}``.

    config: ``a``, ``b`` (element formats; ``b`` defaults to ``a``) or ``format`` (mxfp4, mxfp6,
        mxfp8); ``k`` (required), ``acc``, ``round``, ``subnormals``, ``tree``. A certificate's
        ``config`` dict fits: ``eval(**cert["config"], ...)``.
    xa, xb: a scale code (int), ``(lo, hi)``, or the command's text ("0x7f", "0..254", "all");
        required.
    a_vals, b_vals: the k elements of each side: values (ints, floats, or strings such as
        "-0", "inf", "nan") or codes ("0x7"); a list, or a string as on the command line;
        required.
    placements: a list of placements or "pre,post" (default: pre, post, dequant, post2).
    relation: "bitwise" (default) or "value".

    >>> r = eval(format="mxfp4", k=2, xa=127, xb=127, a_vals=[6, 6], b_vals=[6, 6], placements=["pre", "post"])
    >>> r["results"][0]["values"]["pre"]
    {'bits': '0x42900000', 'value': '72'}
    """
    return _mxcert.eval(_options(xa=xa, xb=xb, a_vals=a_vals, b_vals=b_vals, placements=placements,
                                 relation=relation, **config))


def table(*, lhs=None, rhs=None, relation=None, engine=None, solver=None, timeout=None,
          query_timeout=None, max_terms=None, no_collapse=False, embed_queries=False, verbose=False,
          progress=None, **config):
    """The exact agree set of placements ``lhs`` and ``rhs`` over all 255 x 255 scale-code pairs.

    Returns the certificate ``mxcert table --json`` prints (docs/certificates.md): ``"agree"``
    (regions), ``"agree_pairs"``, ``"witnesses"``, ``"proofs"``, ... With ``engine="solver"``
    (default) every region is proven by cvc5 or z3 (``solver``) and every excluded pair refuted
    by a witness; ``engine="exhaustive"`` evaluates every input (small configurations only).

    config: as for ``eval`` (``k`` required).
    lhs, rhs: "pre" (default), "post" (default), "dequant", "post2".
    relation: "bitwise" (default) or "value".
    timeout: seconds for the whole table; query_timeout: for one solver call (default 120);
        max_terms: terms in one query. A limit reached raises ``Unknown``, whose
        ``certificate`` holds what was decided.
    no_collapse: exhaustive engine: evaluate every code pair on its own.
    embed_queries: embed each proof's SMT-LIB2 text. verbose: log each query on stderr.
    progress: a callable ``progress(done, total)`` called as the table advances; an exception
        it raises stops the table and is raised again. Ctrl-C stops it as it stops the command
        (KeyboardInterrupt).
    """
    return _mxcert.table(_options(lhs=lhs, rhs=rhs, relation=relation, engine=engine, solver=solver,
                                  timeout=timeout, query_timeout=query_timeout, max_terms=max_terms,
                                  no_collapse=no_collapse, embed_queries=embed_queries,
                                  verbose=verbose, **config), progress)


def check(certificate, *, solver=None, timeout=None, query_timeout=None, max_terms=None,
          verbose=False, progress=None):
    """Checks every claim of a certificate with the independent checker (src/check).

    certificate: a file name, or a certificate as a dict (e.g. from ``table``); a file's
        relative ``query_file`` names are resolved next to it, a dict's in the current directory.
    solver: the re-proving solver: "other" (default: not the one that produced a proof),
        "cvc5", "z3", "both", "none".
    timeout, query_timeout (default 300), max_terms: as for ``table``; what a limit leaves
        unchecked is an unknown claim.

    Returns what ``mxcert check --json`` prints: ``"verdict"`` is "HOLDS", "REJECTED" (a claim
    is false; the command exits 1) or "UNKNOWN" (exit 3), ``"claims"`` one record per claim
    ``{"claim", "status", "detail", "seconds"}``; ``"file"`` is the file name (None for a dict).
    Raises ``UsageError`` for an unreadable or invalid certificate.
    """
    path, text = _source(certificate)
    return _mxcert.check(_options(solver=solver, timeout=timeout, query_timeout=query_timeout,
                                  max_terms=max_terms, verbose=verbose), path, text, progress)


def read_certificate(certificate):
    """Reads and validates a certificate (a file name, or a dict) as ``mxcert check`` does:
    the schema strictly (unknown keys, wrong types, bad ranges are a ``UsageError`` naming the
    field). Returns the certificate as the writer writes it (a committed table reads back as
    its own JSON). Whether its claims hold is ``check``'s business."""
    return _mxcert.read_certificate(*_source(certificate))


class GuardTable(_mxcert.GuardTable):
    """The agree set of a certificate or of a compact guard table (``mxcert export --as json``),
    for lookups: ``GuardTable(source).agrees(xa, xb)``. ``source`` is a file name or a dict.
    Raises ``UsageError`` for an unreadable or invalid table."""

    def __init__(self, source):
        super().__init__(*_source(source))

    def __contains__(self, pair):
        """``(xa, xb) in table``: ``table.agrees(xa, xb)``."""
        xa, xb = pair
        return self.agrees(xa, xb)

    def __repr__(self):
        c = self.config
        return "<GuardTable %s x %s, k=%d, %s vs %s, %s: %d of 65025 pairs agree>" % (
            c["a"], c["b"], c["k"], self.lhs, self.rhs, self.relation, self.agree_pairs)
