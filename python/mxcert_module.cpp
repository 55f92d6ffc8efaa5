// python/mxcert_module.cpp — the extension mxcert._mxcert: eval, table, check, the certificate
// reader and guard lookup for Python, over the same code as the `mxcert` command.
//
// Options arrive as the command's own arguments ("--k=2", "--no-collapse"; mxcert/__init__.py
// builds them from keyword arguments) and are parsed by the command's parser against the same
// option sets (src/cli/reports.h), so the results are the JSON documents the command prints and
// bad input gets the command's message. Errors are raised as the package's exception types
// (handed over by _set_exception_types): the failure classes of src/cli/errors.h. Results are
// converted from JSON text with Python's json module, so numbers and strings arrive exactly.
#include "certs/certificate.h"
#include "smt/budget.h"
#include "src/check/checker.h"
#include "src/cli/errors.h"
#include "src/cli/options.h"
#include "src/cli/reports.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <csignal>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace mxcert;

namespace {

/// The package's exception types: mxcert.Error and its subclasses (kept for the life of the
/// process; null until mxcert/__init__.py hands them over).
struct ExceptionTypes {
  PyObject *error = nullptr, *usage = nullptr, *unknown = nullptr, *internal = nullptr;
};

/// The one set of exception types of this process.
ExceptionTypes &exceptionTypes() {
  static ExceptionTypes types;
  return types;
}

/// The exception type for a failure of exit code `exit` (RuntimeError before the package has
/// registered its types).
PyObject *typeFor(int exit) {
  const ExceptionTypes &t = exceptionTypes();
  PyObject *type = exit == 2 ? t.usage : exit == 3 ? t.unknown : t.internal;
  return type ? type : PyExc_RuntimeError;
}

/// Raises the exception of exit code `exit` with `message`, and the attributes `attrs` set on
/// the exception object.
[[noreturn]] void raise(int exit, const std::string &message, const py::dict &attrs = py::dict()) {
  py::object type = py::reinterpret_borrow<py::object>(typeFor(exit));
  py::object exc = type(message);
  for (auto item : attrs) py::setattr(exc, item.first, item.second);
  PyErr_SetObject(type.ptr(), exc.ptr());
  throw py::error_already_set();
}

/// Runs `f`, turning a C++ exception into the package's exception (the message the `mxcert`
/// command prints after "mxcert: KIND: "). Python errors pass through.
template <class F> auto guarded(F &&f) -> decltype(f()) {
  try {
    return f();
  } catch (const py::error_already_set &) {
    throw;
  } catch (const py::builtin_exception &) {
    throw;
  } catch (const cli::HelpRequested &) {
    raise(2, "unknown option --help (the Python API documents itself: help(mxcert))");
  } catch (...) {
    const cli::Failure fail = cli::failureOf(std::current_exception());
    raise(fail.exit, cli::oneLine(fail.message));
  }
}

/// A JSON value as the Python object json.loads makes of its text (dict, list, int, ...).
py::object toPython(const nlohmann::json &j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

/// Parses `opts` (arguments such as "--k=2" or "--json") as command `cmd` parses its command
/// line, accepting only the options of `set`; UsageError as the command would say it.
cli::Args parseArgs(const std::string &cmd, const std::vector<std::string> &opts, const cli::OptionSet &set) {
  std::vector<std::string> words = {"mxcert", cmd};
  for (const std::string &o : opts) {
    if (o.find('\0') != std::string::npos)
      throw cli::UsageError("argument '" + cli::oneLine(o.substr(0, o.find('\0'))) + "...' contains a NUL character");
    words.push_back(o);
  }
  std::vector<char *> argv;
  for (std::string &w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  return cli::Args(int(words.size()), argv.data(), 2, set.flags, set.valued);
}

/// A certificate from a file or from JSON text, validated as `mxcert check` reads a file.
certs::Certificate certificateFrom(const std::optional<std::string> &path, const std::optional<std::string> &text) {
  if (path) return certs::readCertificate(*path);
  try {
    return certs::certificateFromJson(certs::parseStrict(text.value_or(""), "the certificate"));
  } catch (const nlohmann::json::exception &e) {
    throw certs::SchemaError(std::string("malformed certificate: ") + e.what());
  }
}

/// SIGINT for the duration of a long call: like the `mxcert` command's handler, it sets the
/// budgets' interrupt flag, so the running solver child is killed and nothing undecided is
/// reported as proven (Python's own handler would only run once the call returns). The
/// previous handler is restored at the end.
extern "C" void onPythonInterrupt(int sig) { smt::Budget::interruptSignal() = sig; }

/// Runs a long computation (a table, a check) with a progress callback that calls `progress`
/// (a Python callable taking (done, total), or None) and makes Ctrl-C stop the computation as
/// it stops the command. Afterwards an interrupt raises KeyboardInterrupt, and an exception the
/// callback raised (which also stops the computation) is raised again.
class Interruptible {
public:
  /// Installs the SIGINT handler; `progress` may be None.
  explicit Interruptible(py::object progress) : progress_(std::move(progress)) {
    smt::Budget::interruptSignal() = 0;
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = onPythonInterrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_);
  }
  /// Restores the previous SIGINT handler and clears the interrupt flag.
  ~Interruptible() {
    sigaction(SIGINT, &old_, nullptr);
    smt::Budget::interruptSignal() = 0;
  }
  Interruptible(const Interruptible &) = delete;
  Interruptible &operator=(const Interruptible &) = delete;

  /// The callback for the engine or checker.
  cli::ProgressFn callback() {
    if (progress_.is_none()) return {};
    return [this](long done, long total) {
      if (error_ || smt::Budget::interrupted()) return;
      try {
        progress_(done, total);
      } catch (py::error_already_set &e) {
        error_.emplace(std::move(e));
        smt::Budget::interruptSignal() = SIGINT;  // stop as an interrupt does
      }
    };
  }

  /// Runs `work` (which gets the callback) and returns its result; raises the callback's
  /// exception or KeyboardInterrupt (for Ctrl-C) instead when there was one.
  template <class F> auto run(F &&work) -> decltype(work(cli::ProgressFn())) {
    try {
      auto result = work(callback());
      raisePending();
      return result;
    } catch (const py::error_already_set &) {
      throw;
    } catch (...) {
      raisePending();
      throw;
    }
  }

private:
  /// Raises what stopped the computation, if anything did.
  void raisePending() {
    if (error_) throw std::move(*error_);
    if (smt::Budget::interrupted()) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
      throw py::error_already_set();
    }
  }

  py::object progress_;
  std::optional<py::error_already_set> error_;
  struct sigaction old_;
};

/// mxcert.eval: the document of `mxcert eval --json`.
py::object pyEval(const std::vector<std::string> &opts) {
  return guarded([&] { return toPython(cli::evalReport(parseArgs("eval", opts, cli::evalOptions()))); });
}

/// mxcert.table: the certificate of `mxcert table --json`; an incomplete table raises Unknown
/// with the attributes `certificate` (what was decided) and `details` (the command's lines).
py::object pyTable(const std::vector<std::string> &opts, py::object progress) {
  return guarded([&] {
    const cli::Args args = parseArgs("table", opts, cli::tableOptions());
    Interruptible scope(std::move(progress));
    const cli::TableOutcome out = scope.run([&](const cli::ProgressFn &fn) { return cli::runTable(args, fn); });
    py::object cert = toPython(certs::toJson(out.cert));
    if (!out.complete) {
      py::dict attrs;
      attrs["certificate"] = cert;
      attrs["details"] = py::cast(out.unknown);
      raise(3, out.unknown.empty() ? "the table is incomplete" : out.unknown.front(), attrs);
    }
    return cert;
  });
}

/// mxcert.check: the report of `mxcert check --json` for a file (`path`) or JSON text.
py::object pyCheck(const std::vector<std::string> &opts, const std::optional<std::string> &path,
                   const std::optional<std::string> &text, py::object progress) {
  return guarded([&] {
    const cli::Args args = parseArgs("check", opts, cli::checkOptions());
    smt::Budget budget;
    check::CheckOptions opt = cli::checkOptionsOf(args, path.value_or(""), budget);
    const certs::Certificate cert = certificateFrom(path, text);
    Interruptible scope(std::move(progress));
    const check::CheckReport rep = scope.run([&](const cli::ProgressFn &fn) {
      opt.progress = fn;
      return check::checkCertificate(cert, opt);
    });
    return toPython(cli::checkReport(path ? nlohmann::json(*path) : nlohmann::json(nullptr), cert, rep));
  });
}

/// mxcert.read_certificate: the validated certificate as the writer writes it.
py::object pyReadCertificate(const std::optional<std::string> &path, const std::optional<std::string> &text) {
  return guarded([&] { return toPython(certs::toJson(certificateFrom(path, text))); });
}

/// A guard table from a file (`path`) or JSON text (a certificate or a compact table).
certs::GuardTable guardTableFrom(const std::optional<std::string> &path, const std::optional<std::string> &text) {
  return guarded([&] {
    return path ? certs::readGuardTable(*path) : certs::guardTableFromJson(certs::parseStrict(text.value_or(""), "the guard table"));
  });
}

/// Checks that `v` is a scale code (0..255) named `name`; UsageError otherwise.
int scaleCode(long long v, const char *name) {
  if (v < 0 || v > 255)
    throw cli::UsageError(std::string(name) + ": " + std::to_string(v) + " is out of range 0..255");
  return int(v);
}

}  // namespace

PYBIND11_MODULE(_mxcert, m) {
  m.doc() = "The C++ core of the mxcert package (import mxcert; see help(mxcert)).";
  m.attr("__version__") = MXCERT_VERSION;

  m.def(
      "_set_exception_types",
      [](py::object error, py::object usage, py::object unknown, py::object internal) {
        ExceptionTypes &t = exceptionTypes();
        t.error = error.release().ptr();  // kept for the life of the process
        t.usage = usage.release().ptr();
        t.unknown = unknown.release().ptr();
        t.internal = internal.release().ptr();
      },
      "Registers the exception types raised for bad input (exit 2), unknown results (exit 3) and "
      "internal errors (70).");
  m.def("eval", &pyEval, py::arg("options"), "The document of `mxcert eval --json OPTIONS`.");
  m.def("table", &pyTable, py::arg("options"), py::arg("progress") = py::none(),
        "The certificate of `mxcert table --json OPTIONS`.");
  m.def("check", &pyCheck, py::arg("options"), py::arg("path"), py::arg("text"), py::arg("progress") = py::none(),
        "The report of `mxcert check --json OPTIONS FILE` for a file or JSON text.");
  m.def("read_certificate", &pyReadCertificate, py::arg("path"), py::arg("text"),
        "The certificate of a file or JSON text, validated and as the writer writes it.");

  py::class_<certs::GuardTable>(m, "GuardTable",
                                "The guard of a certificate or compact guard table: which scale-code pairs agree.")
      .def(py::init(&guardTableFrom), py::arg("path"), py::arg("text"))
      .def(
          "agrees",
          [](const certs::GuardTable &t, long long xa, long long xb) {
            return guarded([&] { return t.agree.contains(scaleCode(xa, "xa"), scaleCode(xb, "xb")); });
          },
          py::arg("xa"), py::arg("xb"),
          "Whether the scale-code pair (xa, xb) is in the agree set: the two placements give related "
          "results on every input there. Codes are 0..255; 255 (NaN) is never in the agree set. "
          "UsageError for a code outside 0..255.")
      .def_property_readonly(
          "config", [](const certs::GuardTable &t) { return toPython(certs::configToJson(t.config)); },
          "The configuration, as in certificates: {'a', 'b', 'acc', 'round', 'subnormals', 'k', 'tree'}.")
      .def_property_readonly(
          "lhs", [](const certs::GuardTable &t) { return std::string(toString(t.lhs)); }, "The first placement.")
      .def_property_readonly(
          "rhs", [](const certs::GuardTable &t) { return std::string(toString(t.rhs)); }, "The second placement.")
      .def_property_readonly(
          "relation", [](const certs::GuardTable &t) { return std::string(toString(t.relation)); },
          "'bitwise' or 'value'.")
      .def_property_readonly(
          "certified", [](const certs::GuardTable &t) { return t.certified; },
          "Whether the table is a solver certificate (proofs and witnesses); False for an exhaustive "
          "table or a compact guard table. Whether its claims hold is mxcert.check's business.")
      .def_property_readonly(
          "agree", [](const certs::GuardTable &t) { return toPython(certs::guardToJson(t.agree)); },
          "The agree set as regions [{'xa': [lo, hi], 'xb': [lo, hi], 'e': [lo, hi]}, ...].")
      .def_property_readonly(
          "agree_pairs", [](const certs::GuardTable &t) { return t.agree.toSet().count(); },
          "The number of scale-code pairs in the agree set (of 255 x 255).")
      .def_property_readonly(
          "guard", [](const certs::GuardTable &t) { return t.agree.str(); },
          "The agree set in the guard syntax of the command line (\"xa:0..254,xb:0..254,e:-147..122\").");
}
