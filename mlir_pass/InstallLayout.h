// mlir_pass/InstallLayout.h — where the running pass code lives, and the installed files found
// relative to it.
//
// The pass code runs from one of two files: the executable `mxcert-opt`, or the pass plugin
// (`libMxcertPassPlugin.so`) that upstream `mlir-opt` loaded with `--load-pass-plugin`. Where
// that file is installed (`<prefix>/bin/mxcert-opt`, `<prefix>/lib/mxcert/libMxcertPassPlugin.so`,
// the directories fixed at build time by GNUInstallDirs), the certified tables are
// `<prefix>/share/mxcert/tables` and the checker is `<prefix>/bin/mxcert`.
#pragma once

#include <string>

namespace mxcert::mlir_pass {

/// The file that holds the running pass code.
struct CodeFile {
  std::string path;   ///< its real path ("" if unknown)
  bool plugin = false; ///< a shared object loaded into another program (the pass plugin)
};

/// The file holding this code: the shared object it was linked into when that was loaded
/// (dlopen) by another program, else the running executable.
CodeFile codeFile();

/// The installation prefix of `f`: the directory P with f.path = P/<bindir>/NAME for an
/// executable, P/<plugindir>/NAME for a plugin (bindir = CMAKE_INSTALL_BINDIR, plugindir =
/// CMAKE_INSTALL_LIBDIR/mxcert, both relative to the prefix); "" when `f` lies elsewhere
/// (a build tree, or a copy moved out of its prefix).
std::string installPrefix(const CodeFile &f);

/// The directory where the installed tools next to `f` are: an executable's own directory;
/// for a plugin, <prefix>/<bindir> of its installPrefix, or "" when it is not installed.
std::string toolsDir(const CodeFile &f);

/// The installed certified tables of `f`, <prefix>/<datadir>/mxcert/tables, when `f` is
/// installed and that directory exists; else "".
std::string installedTablesDir(const CodeFile &f);

/// The installed grown set of `f`, <prefix>/<datadir>/mxcert/grown (certs/grown with its
/// index.json), when `f` is installed and that directory exists; else "".
std::string installedGrownDir(const CodeFile &f);

/// The installed NVFP4 set of `f`, <prefix>/<datadir>/mxcert/nvfp4 (certs/nvfp4 with its
/// index.json), when `f` is installed and that directory exists; else "".
std::string installedNvfp4Dir(const CodeFile &f);

}  // namespace mxcert::mlir_pass
