# lit configuration of the mxcert-opt tests (mlir_pass/test). Run through ctest (mlir_lit),
# or directly: lit -sv build/mlir_pass/test
import os

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
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%mlir_runner", config.mlir_runner))
config.substitutions.append(("%runner_libs", config.runner_libs))
