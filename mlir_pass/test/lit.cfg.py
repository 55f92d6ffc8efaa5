# lit configuration of the mxcert-opt tests (mlir_pass/test). Run through ctest (mlir_lit),
# or directly: lit -sv build/mlir_pass/test
import os
import shutil

import lit.formats

config.name = "mxcert-opt"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)

# mxcert-opt first, then FileCheck / not / mlir-runner from LLVM 22.
config.environment["PATH"] = os.pathsep.join(
    [config.mxcert_opt_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.substitutions.append(("%tables", config.tables_dir))
# The certificate checker the pass runs before it uses a certificate (the build tree's mxcert,
# which mxcert-opt also finds by itself). Without the solver build there is none, and tests
# that rewrite with a certificate are unsupported (REQUIRES: mxcert).
if config.mxcert:
    config.available_features.add("mxcert")
config.substitutions.append(("%mxcert_opt", config.mxcert_opt))
config.substitutions.append(("%mxcert", config.mxcert or "mxcert-not-built"))
# The pass plugin and the upstream mlir-opt that loads it (plugin.mlir), and the install
# directories, relative to a prefix, where the plugin looks for the tables and the checker.
# A sanitized plugin cannot be loaded into the unsanitized mlir-opt (the sanitizer runtime
# must come first), so those tests are unsupported in a MXCERT_SANITIZE build.
sanitized = config.sanitize.upper() in ("ON", "1", "TRUE", "YES")
if config.mlir_opt and not config.mlir_opt.endswith("-NOTFOUND") and not sanitized:
    config.available_features.add("mlir-opt")
config.substitutions.append(("%mlir_opt", config.mlir_opt))
config.substitutions.append(("%plugin", config.plugin))
config.substitutions.append(("%install_bindir", config.install_bindir))
config.substitutions.append(("%install_plugindir", config.install_plugindir))
config.substitutions.append(("%install_tablesdir", config.install_tablesdir))
# The pass caches the certificates the checker accepted; the tests never write to $HOME: one
# fresh cache for this lit run (tests of the cache itself pass check-cache=%t...).
check_cache = os.path.join(config.test_exec_root, "check-cache")
if os.path.isdir(check_cache):
    shutil.rmtree(check_cache, ignore_errors=True)
config.environment["MXCERT_CHECK_CACHE"] = check_cache
config.environment.pop("MXCERT_CHECKER", None)
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%mlir_runner", config.mlir_runner))
config.substitutions.append(("%runner_libs", config.runner_libs))
