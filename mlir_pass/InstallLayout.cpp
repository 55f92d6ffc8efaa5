// mlir_pass/InstallLayout.cpp — locating the file that holds the pass code (dladdr) and the
// installation prefix around it.
#include "mlir_pass/InstallLayout.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>
#include <link.h>

#ifndef MXCERT_INSTALL_BINDIR
#define MXCERT_INSTALL_BINDIR "bin"
#endif
#ifndef MXCERT_INSTALL_PLUGINDIR
#define MXCERT_INSTALL_PLUGINDIR "lib/mxcert"
#endif
#ifndef MXCERT_INSTALL_TABLESDIR
#define MXCERT_INSTALL_TABLESDIR "share/mxcert/tables"
#endif
#ifndef MXCERT_INSTALL_GROWNDIR
#define MXCERT_INSTALL_GROWNDIR "share/mxcert/grown"
#endif
#ifndef MXCERT_INSTALL_NVFP4DIR
#define MXCERT_INSTALL_NVFP4DIR "share/mxcert/nvfp4"
#endif

namespace mxcert::mlir_pass {

namespace {

/// The real path of `p`, or `p` itself when it has none.
std::string realPathOr(const std::string &p) {
  llvm::SmallString<256> out;
  if (p.empty() || llvm::sys::fs::real_path(p, out)) return p;
  return out.str().str();
}

/// The prefix P with dir = P/rel (rel relative, compared component by component), or "".
std::string stripSuffixDir(llvm::StringRef dir, llvm::StringRef rel) {
  if (dir.empty() || rel.empty() || llvm::sys::path::is_absolute(rel)) return "";
  llvm::SmallVector<llvm::StringRef> parts;
  for (auto it = llvm::sys::path::begin(rel), end = llvm::sys::path::end(rel); it != end; ++it)
    if (*it != ".") parts.push_back(*it);
  llvm::StringRef prefix = dir;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (llvm::sys::path::filename(prefix) != *it) return "";
    prefix = llvm::sys::path::parent_path(prefix);
  }
  return prefix.str();
}

}  // namespace

CodeFile codeFile() {
  CodeFile f;
  Dl_info info;
  struct link_map *map = nullptr;
  // The main program's link map has an empty name; a dlopen-ed object's is the path it was
  // opened by (made absolute here: the working directory has not changed since).
  if (dladdr1(reinterpret_cast<void *>(&codeFile), &info, reinterpret_cast<void **>(&map), RTLD_DL_LINKMAP) &&
      map && map->l_name && map->l_name[0] != '\0') {
    f.path = realPathOr(map->l_name);
    f.plugin = true;
    return f;
  }
  f.path = realPathOr(llvm::sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&codeFile)));
  return f;
}

std::string installPrefix(const CodeFile &f) {
  if (f.path.empty()) return "";
  return stripSuffixDir(llvm::sys::path::parent_path(f.path), f.plugin ? MXCERT_INSTALL_PLUGINDIR : MXCERT_INSTALL_BINDIR);
}

std::string toolsDir(const CodeFile &f) {
  if (f.path.empty()) return "";
  if (!f.plugin) return llvm::sys::path::parent_path(f.path).str();
  std::string prefix = installPrefix(f);
  if (prefix.empty()) return "";
  llvm::SmallString<256> dir(prefix);
  llvm::sys::path::append(dir, MXCERT_INSTALL_BINDIR);
  return dir.str().str();
}

namespace {
/// <prefix>/REL for an installed `f` when that directory exists, else "".
std::string installedDir(const CodeFile &f, const char *rel) {
  std::string prefix = installPrefix(f);
  if (prefix.empty()) return "";
  llvm::SmallString<256> dir(prefix);
  llvm::sys::path::append(dir, rel);
  return llvm::sys::fs::is_directory(dir) ? dir.str().str() : "";
}
}  // namespace

std::string installedTablesDir(const CodeFile &f) { return installedDir(f, MXCERT_INSTALL_TABLESDIR); }

std::string installedGrownDir(const CodeFile &f) { return installedDir(f, MXCERT_INSTALL_GROWNDIR); }

std::string installedNvfp4Dir(const CodeFile &f) { return installedDir(f, MXCERT_INSTALL_NVFP4DIR); }

}  // namespace mxcert::mlir_pass
